import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventPublisher } from '@parley/kafka';
import { OutboxRelay as ServiceOutboxRelay } from '@parley/service-kit';
import { DataSource } from 'typeorm';

/** One relay at a time across instances (held by the claiming transaction), so a conversation's events keep their order. */
const RELAY_LOCK = 0x72737001;

/**
 * Publishes the inbox actions' outbox after each commit that queued events (service-kit's OutboxRelay); a reply's
 * message id is fixed when it is written, so a republished one is still the same message.
 */
@Injectable()
export class OutboxRelay extends ServiceOutboxRelay {
  constructor(@InjectDataSource() db: DataSource, publisher: EventPublisher) {
    super(db, publisher, { lockKey: RELAY_LOCK, batch: 500, sweepMs: 2_000 });
  }
}
