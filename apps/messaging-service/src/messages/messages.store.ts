import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { MessageEntity } from './message.entity';

/** What a message listing is narrowed to (values as stored: numbers normalised). */
export interface MessageFilter {
  direction?: MessageEntity['direction'];
  to?: string;
  from?: string;
  since?: Date;
}

/** Where a message stands, for the inbox's ticks. */
export type MessageStatusRow = Pick<MessageEntity, 'id' | 'status' | 'error' | 'subject'>;

/** Reads of a tenant's messages for its API (MessagesService validates the requests); the tenant id first. */
@Injectable()
export class MessagesStore {
  private readonly messages: Repository<MessageEntity>;

  constructor(@InjectDataSource() db: DataSource) {
    this.messages = db.getRepository(MessageEntity);
  }

  find(tenantId: string, id: string): Promise<MessageEntity | null> {
    return this.messages.findOne({ where: { id, tenantId } });
  }

  /** The statuses of those of `ids` that are the tenant's, in one indexed read. */
  statuses(tenantId: string, ids: readonly string[]): Promise<MessageStatusRow[]> {
    return this.messages
      .createQueryBuilder('m')
      .select(['m.id', 'm.status', 'm.error', 'm.subject'])
      .where('m.tenant_id = :tenantId AND m.id IN (:...ids)', { tenantId, ids })
      .getMany();
  }

  /** Newest first (by seq): up to `limit` messages matching `filter` with a seq below `beforeSeq` (null: from the newest). */
  list(tenantId: string, filter: MessageFilter, limit: number, beforeSeq: string | null): Promise<MessageEntity[]> {
    const qb = this.messages.createQueryBuilder('m').where('m.tenant_id = :tenantId', { tenantId }).orderBy('m.seq', 'DESC').take(limit);
    if (filter.direction) qb.andWhere('m.direction = :direction', { direction: filter.direction });
    if (filter.to) qb.andWhere('m.to = :to', { to: filter.to });
    if (filter.from) qb.andWhere('m.from = :from', { from: filter.from });
    if (filter.since) qb.andWhere('m.created_at >= :since', { since: filter.since });
    if (beforeSeq !== null) qb.andWhere('m.seq < :after', { after: beforeSeq });
    return qb.getMany();
  }
}
