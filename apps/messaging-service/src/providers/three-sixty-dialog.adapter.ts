import type { OutboundContent } from '@parley/contracts';
import { PROVIDER_TIMEOUT_MS, postCloudApiSend } from './cloud-api.adapter';
import type { ProviderSendResult, ProviderSender, WhatsappProviderAdapter } from './whatsapp-provider';

/**
 * 360dialog (a BSP passing Cloud API payloads through): `POST {D360_BASE_URL}/messages` with the channel's API key in
 * `D360-API-KEY`. The key identifies the number, so the route names none; answers and errors are Cloud API shaped.
 */
export class ThreeSixtyDialogAdapter implements WhatsappProviderAdapter {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = PROVIDER_TIMEOUT_MS,
  ) {}

  send(sender: ProviderSender, to: string, content: OutboundContent, correlation?: string): Promise<ProviderSendResult> {
    return postCloudApiSend(`${this.baseUrl}/messages`, { 'D360-API-KEY': sender.accessToken }, to, content, this.timeoutMs, correlation);
  }
}
