import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { InboundModule } from '../inbound/inbound.module';
import { ProvidersModule } from '../providers/providers.module';
import { VoiceController } from './voice.controller';
import { VoiceWebhookService } from './voice-webhook.service';

/** The voice channel (CONTRACT.md §17): calls answered with TwiML, their replies spoken, their minutes announced. */
@Module({
  imports: [ChannelsModule, InboundModule, ProvidersModule],
  controllers: [VoiceController],
  providers: [VoiceWebhookService],
})
export class VoiceModule {}
