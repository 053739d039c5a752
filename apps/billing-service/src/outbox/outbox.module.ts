import { Module } from '@nestjs/common';
import { Outbox } from './outbox';
import { OutboxStore } from './outbox.store';

@Module({ providers: [Outbox, OutboxStore], exports: [Outbox] })
export class OutboxModule {}
