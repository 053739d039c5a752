import { Module } from '@nestjs/common';
import { EmailSinkService } from './email-sink.service';
import { SandboxEmailController } from './email.controller';
import { EmailsStore } from './emails.store';

/** The SMTP sink and the played customer's mail (CONTRACT.md §17). */
@Module({
  controllers: [SandboxEmailController],
  providers: [EmailSinkService, EmailsStore],
  exports: [EmailSinkService],
})
export class EmailModule {}
