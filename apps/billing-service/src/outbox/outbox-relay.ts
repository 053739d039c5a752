import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventPublisher } from '@parley/kafka';
import { OutboxRelay as ServiceOutboxRelay } from '@parley/service-kit';
import { DataSource } from 'typeorm';

/** One relay at a time across instances (held by the claiming transaction), so a tenant's events keep their order. */
const RELAY_LOCK = 0x62696c01;

/** Publishes billing-service's outbox after each commit that queued events (service-kit's OutboxRelay). */
@Injectable()
export class OutboxRelay extends ServiceOutboxRelay {
  constructor(@InjectDataSource() db: DataSource, publisher: EventPublisher) {
    // the sweep finds what a crash between a commit and its wake-up left, or another instance queued
    super(db, publisher, { lockKey: RELAY_LOCK, batch: 100, sweepMs: 5_000 });
  }
}
