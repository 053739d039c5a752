import { Module } from '@nestjs/common';
import { OutgoingMailStore } from './outgoing-mail.store';
import { PlatformMail } from './platform-mail';

/** The platform's own mail (issue 32): the outbox and the relay that sends it over SMTP. */
@Module({ providers: [OutgoingMailStore, PlatformMail], exports: [OutgoingMailStore, PlatformMail] })
export class MailModule {}
