import type { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { NotificationOutbox, OutboxEntry } from '../notifications/notification-outbox.store';
import { MessageEntity } from './message.entity';

const MAX_ROWS_PER_INSERT = 500;

interface Pending {
  row: MessageEntity;
  notifications: OutboxEntry[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for the send route: the messages accepted within one turn of the event loop are stored with one
 * multi-row INSERT, so a burst of sends costs a few round trips instead of one each. The notifications they owe the
 * gateway (their statuses) are stored in the same transaction: no message is ever stored without them. Each caller
 * still waits for its own row to be durable before answering.
 */
export class MessageWriter {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: DataSource,
    private readonly outbox: NotificationOutbox,
  ) {}

  write(row: MessageEntity, notifications: OutboxEntry[] = []): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ row, notifications, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    for (let i = 0; i < batch.length; i += MAX_ROWS_PER_INSERT) {
      const chunk = batch.slice(i, i + MAX_ROWS_PER_INSERT);
      this.store(chunk).then(
        () => chunk.forEach((p) => p.resolve()),
        (err: unknown) => chunk.forEach((p) => p.reject(err)),
      );
    }
  }

  private async store(chunk: Pending[]): Promise<void> {
    const rows = chunk.map((p) => p.row) as QueryDeepPartialEntity<MessageEntity>[];
    const notifications = chunk.flatMap((p) => p.notifications);
    // Without notifications (status callbacks off) one statement suffices: no transaction round trips.
    if (notifications.length === 0) {
      await this.db.getRepository(MessageEntity).insert(rows);
      return;
    }
    await this.db.transaction(async (tx) => {
      await tx.getRepository(MessageEntity).insert(rows);
      await this.outbox.record(tx, notifications);
    });
  }
}
