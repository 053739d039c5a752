import { Module } from '@nestjs/common';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';

@Module({ providers: [Outbox, OutboxRelay], exports: [Outbox] })
export class OutboxModule {}
