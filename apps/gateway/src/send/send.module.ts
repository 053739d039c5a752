import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { SendController } from './send.controller';
import { SendService } from './send.service';

@Module({ imports: [IdempotencyModule], controllers: [SendController], providers: [SendService] })
export class SendModule {}
