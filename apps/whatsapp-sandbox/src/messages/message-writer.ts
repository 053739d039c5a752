import type { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { MessageEntity } from './message.entity';

const MAX_ROWS_PER_INSERT = 500;

interface Pending {
  row: MessageEntity;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for the send route: the messages accepted within one turn of the event loop are stored with one
 * multi-row INSERT, so a burst of sends costs a few round trips instead of one each. Each caller still waits for
 * its own row to be durable before answering.
 */
export class MessageWriter {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: DataSource) {}

  write(row: MessageEntity): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
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
      this.db
        .getRepository(MessageEntity)
        .insert(chunk.map((p) => p.row) as QueryDeepPartialEntity<MessageEntity>[])
        .then(
          () => chunk.forEach((p) => p.resolve()),
          (err: unknown) => chunk.forEach((p) => p.reject(err)),
        );
    }
  }
}
