import { Injectable, Logger } from '@nestjs/common';
import { ProblemTypes, Topics, problem, type WhatsappWebhookData } from '@parley/contracts';
import type { RawBodyRequest } from '@nestjs/common';
import { EventPublisher, RpcClient } from '@parley/kafka';
import type { FastifyRequest } from 'fastify';
import { ProblemException } from '@parley/service-kit';
import { constantTimeEqual } from '../identity/auth/credentials';
import { GatewayConfig } from '../config/gateway.config';
import { InboundTokenVerifier } from './inbound-token.verifier';
import { isValidMetaSignature, metaPartitionKey } from './meta-signature';

/** Providers redeliver what we do not acknowledge; ours comes once the broker has the notification. */
const QUEUE_TIMEOUT_MS = 5000;

/**
 * Intake of provider notifications (CONTRACT.md §7): authenticate, then queue the raw body as received on
 * `whatsapp.webhook` for messaging-service, which parses, deduplicates and attributes it. Nothing is parsed for
 * meaning here, so a body we cannot understand is still acknowledged (and dead-lettered downstream) instead of being
 * redelivered by the provider for days.
 */
@Injectable()
export class ProviderIntakeService {
  private readonly logger = new Logger(ProviderIntakeService.name);

  constructor(
    private readonly publisher: EventPublisher,
    private readonly config: GatewayConfig,
    private readonly tokens: InboundTokenVerifier,
    private readonly rpc: RpcClient,
  ) {}

  /** Meta's webhook verification handshake: the challenge when the token is ours, else null. */
  verifyMetaSubscription(mode: unknown, token: unknown, challenge: unknown): string | null {
    if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return null;
    return constantTimeEqual(token, this.config.META_VERIFY_TOKEN) ? challenge : null;
  }

  /** A Cloud API notification: any body with a valid signature is queued as it came, JSON or not. */
  async acceptMeta(rawBody: Buffer, signature: string | undefined, requestId: string): Promise<void> {
    if (!isValidMetaSignature(rawBody, signature, this.config.META_APP_SECRET)) {
      throw new ProblemException(problem(401, ProblemTypes.unauthorized, 'Unauthorized', 'X-Hub-Signature-256 is missing or does not match the body.'));
    }
    const body = rawBody.toString('utf8');
    await this.queue({ provider: 'meta', channel_id: null, raw_body: body, received_at: new Date().toISOString() }, metaPartitionKey(parseJson(body)), requestId);
  }

  /** 360dialog (`/webhooks/360dialog/{channel_id}`): the channel's inbound token instead of a signature. */
  async accept360Dialog(channelId: string, token: string | undefined, rawBody: Buffer | undefined, requestId: string): Promise<void> {
    let valid: boolean;
    try {
      valid = typeof token === 'string' && token.length > 0 && token.length <= 512 && (await this.tokens.isValid(channelId, token, requestId));
    } catch (err) {
      this.logger.warn(`360dialog token of channel ${channelId} not verifiable now (the provider will redeliver): ${String(err)}`);
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The notification could not be authenticated now; redeliver it later.'), {
        'retry-after': '5',
      });
    }
    if (!valid || !rawBody) {
      throw new ProblemException(problem(401, ProblemTypes.unauthorized, 'Unauthorized', 'X-Channel-Token is missing or is not this channel’s inbound token.'));
    }
    // Keyed by channel: one number's notifications stay in order.
    await this.queue({ provider: '360dialog', channel_id: channelId, raw_body: rawBody.toString('utf8'), received_at: new Date().toISOString() }, channelId, requestId);
  }

  /**
   * A Twilio SMS webhook: the signature is checked by messaging-service against the auth token of the SMS channel
   * whose number is `ourNumberField` (`To` of an inbound SMS, `From` of a status callback), over the URL Twilio
   * called (the public base URL's, else as this request names its host). Unsigned, forged or for a number nobody
   * connected → 401. The form is queued as it came, keyed by channel.
   */
  async acceptTwilioSms(request: RawBodyRequest<FastifyRequest>, ourNumberField: 'To' | 'From', signature: string | undefined, requestId: string): Promise<void> {
    const unauthorized = () =>
      new ProblemException(problem(401, ProblemTypes.unauthorized, 'Unauthorized', 'X-Twilio-Signature is missing or does not sign this request with the number’s auth token.'));
    const rawBody = request.rawBody?.toString('utf8') ?? '';
    const params = Object.fromEntries(new URLSearchParams(rawBody));
    const number = params[ourNumberField];
    if (typeof signature !== 'string' || !signature || signature.length > 512 || !number) throw unauthorized();
    let verdict: { valid: boolean; channel_id: string | null };
    try {
      verdict = await this.rpc.request('channels.verify-twilio-signature', { urls: this.signedUrls(request), params, signature, phone_number: number }, { requestId, timeoutMs: 3_000 });
    } catch (err) {
      this.logger.warn(`Twilio signature for ${number} not verifiable now (Twilio will retry): ${String(err)}`);
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The webhook could not be authenticated now; redeliver it later.'), { 'retry-after': '5' });
    }
    if (!verdict.valid || !verdict.channel_id) throw unauthorized();
    await this.queue({ provider: 'twilio', channel_id: verdict.channel_id, raw_body: rawBody, received_at: new Date().toISOString() }, verdict.channel_id, requestId);
  }

  /** The URLs Twilio may have signed: the configured public one, and the one this request's Host header names. */
  signedUrls(request: FastifyRequest): string[] {
    const proto = String(request.headers['x-forwarded-proto'] ?? request.protocol ?? 'http').split(',')[0].trim();
    const urls = [`${proto}://${request.headers.host ?? ''}${request.url}`];
    if (this.config.PUBLIC_BASE_URL) urls.unshift(`${this.config.PUBLIC_BASE_URL}${request.url}`);
    return [...new Set(urls)];
  }

  private async queue(data: WhatsappWebhookData, key: string, requestId: string): Promise<void> {
    try {
      await this.publisher.publishEvent(EventPublisher.envelope(Topics.WhatsappWebhook, null, data), key, requestId, { timeoutMs: QUEUE_TIMEOUT_MS });
    } catch (err) {
      this.logger.warn(`${data.provider} notification not queued (the provider will redeliver): ${String(err)}`);
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The notification could not be queued; redeliver it later.'), {
        'retry-after': '5',
      });
    }
  }
}

/** The JSON a notification holds, or undefined when it holds none (it is queued all the same). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
