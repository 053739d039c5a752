import type { OutboundContent } from '@parley/contracts';
import { cloudApiError, networkError } from './cloud-api.errors';
import { cloudApiRichMessage } from './cloud-api.rich';
import type { CloudApiSendBody, CloudApiSendResponse } from './cloud-api.types';
import { postJson, type JsonAnswer } from './http-post';
import { ProviderError, type ProviderSendResult, type ProviderSender, type WhatsappProviderAdapter } from './whatsapp-provider';

/**
 * Time a provider gets to answer a send by default (WHATSAPP_PROVIDER_TIMEOUT_MS); after it the outcome is unknown, and the send is repeated only if no status
 * of it arrives meanwhile (see SendDispatcher). Sends run in the send-queue worker, so a slow provider holds up
 * nothing but its own messages.
 */
export const PROVIDER_TIMEOUT_MS = 5_000;

/** The Cloud API body of an outbound message. */
export function cloudApiSendBody(to: string, content: OutboundContent, correlation?: string): CloudApiSendBody {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...(correlation ? { biz_opaque_callback_data: correlation } : {}) } as const;
  switch (content.type) {
    case 'text':
      return { ...base, type: 'text', text: { body: content.text } };
    case 'template': {
      const { name, language, components } = content.template;
      return { ...base, type: 'template', template: { name, language, ...(components ? { components } : {}) } };
    }
    default:
      return { ...base, ...cloudApiRichMessage(content) };
  }
}

/**
 * Meta's WhatsApp Cloud API: `POST {base}/{version}/{phone_number_id}/messages` with `Authorization: Bearer <token>`.
 * The sandbox speaks the same routes, so `sandbox` channels use this adapter with the sandbox's base URL.
 */
export class CloudApiAdapter implements WhatsappProviderAdapter {
  constructor(
    private readonly baseUrl: string,
    private readonly version: string,
    private readonly timeoutMs = PROVIDER_TIMEOUT_MS,
  ) {}

  async send(sender: ProviderSender, to: string, content: OutboundContent, correlation?: string): Promise<ProviderSendResult> {
    if (!sender.phoneNumberId) throw new ProviderError('no_phone_number_id', 'The channel has no phone_number_id to send from', false);
    const url = `${this.baseUrl}/${this.version}/${encodeURIComponent(sender.phoneNumberId)}/messages`;
    return postCloudApiSend(url, { authorization: `Bearer ${sender.accessToken}` }, to, content, this.timeoutMs, correlation);
  }
}

/** One Cloud-API-shaped send (Meta, 360dialog, sandbox): the payload, the answer and its errors are the same everywhere. */
export async function postCloudApiSend(
  url: string,
  auth: Record<string, string>,
  to: string,
  content: OutboundContent,
  timeoutMs: number,
  correlation?: string,
): Promise<ProviderSendResult> {
  let answer: JsonAnswer;
  try {
    answer = await postJson(url, { ...auth, 'content-type': 'application/json', accept: 'application/json' }, JSON.stringify(cloudApiSendBody(to, content, correlation)), timeoutMs);
  } catch (err) {
    throw networkError(err);
  }
  const { status, body } = answer;
  if (status < 200 || status >= 300) throw cloudApiError(status, body);
  const id = (body as CloudApiSendResponse | null)?.messages?.[0]?.id;
  // Accepted but unanswerable: resending could deliver twice, so this is terminal rather than retried.
  if (typeof id !== 'string' || !id) throw new ProviderError('invalid_response', 'The WhatsApp provider answered without a message id', false);
  return { providerMessageId: id };
}
