import { Injectable, Logger } from '@nestjs/common';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import type { CloudApiErrorBody } from '../providers/cloud-api.types';

const TIMEOUT_MS = 10_000;

/** One embedded-signup step that Graph refused (`status` is Graph's HTTP status; 0 when it never answered). */
export class GraphStepError extends Error {
  constructor(
    readonly step: 'exchange_code' | 'subscribe_app' | 'register_number' | 'read_number',
    readonly status: number,
    readonly graphCode: number | null,
    readonly graphMessage: string,
  ) {
    super(`Graph ${step} failed (HTTP ${status}${graphCode !== null ? `, code ${graphCode}` : ''}): ${graphMessage}`);
    this.name = 'GraphStepError';
  }
}

/**
 * The Graph API calls of embedded signup's server side (against GRAPH_API_BASE_URL: Meta, or the sandbox in
 * development). Tokens and the app secret travel only in requests; errors carry Graph's message, never a credential.
 */
@Injectable()
export class GraphSignupClient {
  private readonly logger = new Logger(GraphSignupClient.name);

  constructor(private readonly config: MessagingServiceConfig) {}

  /** `GET /{v}/oauth/access_token?client_id&client_secret&code` → the business token. */
  async exchangeCode(code: string): Promise<string> {
    const query = new URLSearchParams({ client_id: this.config.META_APP_ID, client_secret: this.config.META_APP_SECRET, code });
    const body = await this.call('exchange_code', 'GET', `oauth/access_token?${query.toString()}`, null);
    const token = (body as { access_token?: unknown }).access_token;
    if (typeof token !== 'string' || !token) throw new GraphStepError('exchange_code', 200, null, 'the answer had no access_token');
    return token;
  }

  /** `POST /{v}/{waba_id}/subscribed_apps`: the WABA's notifications come to this app. */
  async subscribeApp(wabaId: string, token: string): Promise<void> {
    await this.call('subscribe_app', 'POST', `${encodeURIComponent(wabaId)}/subscribed_apps`, token);
  }

  /** `POST /{v}/{phone_number_id}/register {messaging_product, pin}`: the number can send through the Cloud API. */
  async register(phoneNumberId: string, pin: string, token: string): Promise<void> {
    await this.call('register_number', 'POST', `${encodeURIComponent(phoneNumberId)}/register`, token, { messaging_product: 'whatsapp', pin });
  }

  /** `GET /{v}/{phone_number_id}` → its display number (digits, maybe formatted). */
  async displayNumber(phoneNumberId: string, token: string): Promise<string> {
    const body = await this.call('read_number', 'GET', `${encodeURIComponent(phoneNumberId)}?fields=display_phone_number`, token);
    const display = (body as { display_phone_number?: unknown }).display_phone_number;
    if (typeof display !== 'string' || !/\d/.test(display)) throw new GraphStepError('read_number', 200, null, 'the answer had no display_phone_number');
    return display;
  }

  private async call(step: GraphStepError['step'], method: 'GET' | 'POST', path: string, token: string | null, body?: object): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.config.GRAPH_API_BASE_URL}/${this.config.GRAPH_API_VERSION}/${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      this.logger.warn(`Graph ${step} got no answer: ${(err as Error).name}`);
      throw new GraphStepError(step, 0, null, 'the Graph API did not answer');
    }
    const answer = (await response.json().catch(() => null)) as unknown;
    if (!response.ok) {
      const error = (answer as CloudApiErrorBody | null)?.error;
      throw new GraphStepError(step, response.status, typeof error?.code === 'number' ? error.code : null, error?.message ?? `HTTP ${response.status}`);
    }
    return answer ?? {};
  }
}
