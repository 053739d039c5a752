import { Global, Module } from '@nestjs/common';
import { OutboxRelay } from './outbox-relay';

@Global()
@Module({ providers: [OutboxRelay], exports: [OutboxRelay] })
export class OutboxModule {}
