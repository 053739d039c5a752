import { Module } from '@nestjs/common';
import { SandboxSmsController, TwilioMessagesController } from './sms.controller';
import { SmsMessagesStore } from './sms-messages.store';
import { SmsService } from './sms.service';

/** Twilio-wire SMS (CONTRACT.md §17). */
@Module({
  controllers: [TwilioMessagesController, SandboxSmsController],
  providers: [SmsService, SmsMessagesStore],
})
export class SmsModule {}
