import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { SendController } from './send.controller';
import { SendService } from './send.service';

@Module({ imports: [IdempotencyModule, ChannelsModule], controllers: [SendController], providers: [SendService] })
export class SendModule {}
