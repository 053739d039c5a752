import { Injectable } from '@nestjs/common';
import type { WhatsappProvider } from '@parley/contracts';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { CloudApiAdapter } from './cloud-api.adapter';
import { ProviderError, type WhatsappProviderAdapter } from './whatsapp-provider';

/** Picks the adapter of a channel's provider. 360dialog gets its own adapter in a later issue. */
@Injectable()
export class ProviderRegistry {
  private readonly adapters: Partial<Record<WhatsappProvider, WhatsappProviderAdapter>>;

  constructor(config: MessagingServiceConfig) {
    this.adapters = {
      meta: new CloudApiAdapter(config.GRAPH_API_BASE_URL, config.GRAPH_API_VERSION),
      sandbox: new CloudApiAdapter(config.SANDBOX_URL, config.GRAPH_API_VERSION),
    };
  }

  adapterFor(provider: WhatsappProvider): WhatsappProviderAdapter {
    const adapter = this.adapters[provider];
    if (!adapter) throw new ProviderError('provider_unsupported', `Sending through ${provider} is not supported yet`, false);
    return adapter;
  }
}
