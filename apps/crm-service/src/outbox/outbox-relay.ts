import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventPublisher } from '@parley/kafka';
import { OutboxRelay as ServiceOutboxRelay } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { CrmServiceConfig } from '../config/crm-service.config';

/** One relay at a time across instances (an advisory lock held by the claiming transaction), so events keep their order. */
const RELAY_LOCK = 0x63726d01;

/** Publishes crm-service's outbox after each commit that queued events (service-kit's OutboxRelay). */
@Injectable()
export class OutboxRelay extends ServiceOutboxRelay {
  constructor(@InjectDataSource() db: DataSource, publisher: EventPublisher, config: CrmServiceConfig) {
    super(db, publisher, { lockKey: RELAY_LOCK, batch: 1000, sweepMs: config.CRM_OUTBOX_SWEEP_MS });
  }
}
