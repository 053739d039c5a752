import { Injectable } from '@nestjs/common';
import type { WhatsappProvider } from '@parley/contracts';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { CloudApiAdapter } from './cloud-api.adapter';
import { ThreeSixtyDialogAdapter } from './three-sixty-dialog.adapter';
import { ProviderError, type WhatsappProviderAdapter } from './whatsapp-provider';

/** Picks the adapter of a channel's provider: a new provider is one new adapter here. */
@Injectable()
export class ProviderRegistry {
  private readonly adapters: Partial<Record<WhatsappProvider, WhatsappProviderAdapter>>;

  constructor(config: MessagingServiceConfig) {
    this.adapters = {
      meta: new CloudApiAdapter(config.GRAPH_API_BASE_URL, config.GRAPH_API_VERSION, config.WHATSAPP_PROVIDER_TIMEOUT_MS),
      '360dialog': new ThreeSixtyDialogAdapter(config.D360_BASE_URL, config.WHATSAPP_PROVIDER_TIMEOUT_MS),
      sandbox: new CloudApiAdapter(config.SANDBOX_URL, config.GRAPH_API_VERSION, config.WHATSAPP_PROVIDER_TIMEOUT_MS),
    };
  }

  adapterFor(provider: WhatsappProvider): WhatsappProviderAdapter {
    const adapter = this.adapters[provider];
    if (!adapter) throw new ProviderError('provider_unsupported', `Sending through ${provider} is not supported yet`, false);
    return adapter;
  }
}
