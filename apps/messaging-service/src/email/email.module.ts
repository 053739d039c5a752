import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { InboundModule } from '../inbound/inbound.module';
import { MediaModule } from '../media/media.module';
import { EmailInboundService } from './email-inbound.service';
import { EmailStore } from './email.store';
import { SmtpInboundServer } from './smtp-inbound.server';

/** Inbound email (CONTRACT.md §17): the SMTP listener and what it does with a customer's mail. */
@Module({
  imports: [ChannelsModule, InboundModule, MediaModule],
  providers: [EmailInboundService, EmailStore, SmtpInboundServer],
})
export class EmailModule {}
