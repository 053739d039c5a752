import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ChannelKind, ChannelProvider } from '@parley/contracts';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { CloudApiAdapter } from './cloud-api.adapter';
import { SmtpEmailAdapter } from './smtp-email.adapter';
import { ThreeSixtyDialogAdapter } from './three-sixty-dialog.adapter';
import { TwilioSmsAdapter } from './twilio-sms.adapter';
import { VoiceReplyAdapter } from '../voice/voice-reply.adapter';
import { VoiceState } from '../voice/voice-state';
import { ProviderError, type WhatsappProviderAdapter } from './whatsapp-provider';

/** Where Twilio posts the status callbacks of the SMS we send (the gateway's provider intake, CONTRACT.md §17). */
export const TWILIO_STATUS_CALLBACK_PATH = '/webhooks/twilio/sms/status';

/** Picks the adapter of a channel's kind and provider: a new provider is one new adapter here. */
@Injectable()
export class ProviderRegistry implements OnModuleDestroy {
  private readonly adapters: { [K in ChannelKind]: Partial<Record<ChannelProvider, WhatsappProviderAdapter>> };
  private readonly email: SmtpEmailAdapter;

  constructor(config: MessagingServiceConfig, voice: VoiceState) {
    const timeout = config.WHATSAPP_PROVIDER_TIMEOUT_MS;
    const statusCallback = `${config.publicGatewayUrl}${TWILIO_STATUS_CALLBACK_PATH}`;
    this.email = new SmtpEmailAdapter(timeout);
    const voiceReplies = new VoiceReplyAdapter(voice.calls, voice.replies);
    this.adapters = {
      whatsapp: {
        meta: new CloudApiAdapter(config.GRAPH_API_BASE_URL, config.GRAPH_API_VERSION, timeout),
        '360dialog': new ThreeSixtyDialogAdapter(config.D360_BASE_URL, timeout),
        sandbox: new CloudApiAdapter(config.SANDBOX_URL, config.GRAPH_API_VERSION, timeout),
      },
      sms: {
        twilio: new TwilioSmsAdapter(config.TWILIO_API_BASE_URL, statusCallback, timeout),
        sandbox: new TwilioSmsAdapter(config.SANDBOX_URL, statusCallback, timeout),
      },
      // The sandbox's SMTP sink is a real SMTP server: its URL is the channel's credential like any relay's.
      email: { smtp: this.email, sandbox: this.email },
      // A voice reply is spoken on the call it answers, not sent (VoiceReplyAdapter).
      voice: { twilio: voiceReplies, sandbox: voiceReplies },
    };
  }

  adapterFor(kind: ChannelKind, provider: ChannelProvider): WhatsappProviderAdapter {
    const adapter = this.adapters[kind]?.[provider];
    if (!adapter) throw new ProviderError('provider_unsupported', `Sending ${kind} through ${provider} is not supported`, false);
    return adapter;
  }

  onModuleDestroy(): void {
    this.email.close();
  }
}
