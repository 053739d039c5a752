import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { OptOutsModule } from '../opt-outs/opt-outs.module';
import { ProvidersModule } from '../providers/providers.module';
import { SmsKeywordsService } from './sms-keywords.service';

@Module({
  imports: [MessagesModule, OptOutsModule, ProvidersModule],
  providers: [SmsKeywordsService],
  exports: [SmsKeywordsService],
})
export class SmsModule {}
