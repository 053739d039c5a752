import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MessageEntity } from './message.entity';

/** The messages the sandbox took from businesses, as its test routes read them (MessageWriter stores them). */
@Injectable()
export class MessagesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Oldest first, up to `limit`: to a customer number, from a business number, since a time (each when given, numbers in E.164). */
  listOutbound(filter: { to: string | null; from: string | null; since: Date | null; limit: number }): Promise<MessageEntity[]> {
    const query = this.db.getRepository(MessageEntity).createQueryBuilder('m').where(`m.direction = 'outbound'`);
    if (filter.to) query.andWhere('m.customer_number = :to', { to: filter.to });
    if (filter.from) query.andWhere('m.business_number = :from', { from: filter.from });
    if (filter.since) query.andWhere('m.created_at >= :since', { since: filter.since });
    return query.orderBy('m.created_at', 'ASC').addOrderBy('m.seq', 'ASC').take(filter.limit).getMany();
  }
}
