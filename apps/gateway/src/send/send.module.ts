import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { ChannelsModule } from '../channels/channels.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { SendController } from './send.controller';
import { SendService } from './send.service';

@Module({ imports: [IdempotencyModule, ChannelsModule, BillingModule], controllers: [SendController], providers: [SendService] })
export class SendModule {}
