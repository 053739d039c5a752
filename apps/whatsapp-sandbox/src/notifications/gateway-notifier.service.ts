import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { hubSignature, type CloudNotification } from '../cloud-api/notifications';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';

/** Time the gateway gets to answer one notification. */
export const NOTIFY_TIMEOUT_MS = 10_000;
/** Pauses between attempts of a notification the gateway did not take (Meta retries anything but a 200). */
export const RETRY_DELAYS_MS = [250, 1_000, 4_000, 15_000];

/** Why a POST failed, in words: fetch's own message ("fetch failed") hides the cause (ECONNREFUSED, a time-out). */
export function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause as { code?: string; message?: string } | undefined;
  return cause ? `${err.message} (${cause.code ?? cause.message ?? 'unknown cause'})` : err.message;
}

/** Delivers Cloud API notifications to the gateway's `/webhooks/whatsapp`, signed as Meta signs them. */
@Injectable()
export class GatewayNotifier implements OnApplicationShutdown {
  private readonly logger = new Logger(GatewayNotifier.name);
  private readonly stopping = new AbortController();

  constructor(private readonly config: WhatsappSandboxConfig) {}

  /**
   * One signed POST. The body is serialised once and those exact bytes are both signed and sent. Resolves with
   * the gateway's HTTP status; rejects when it could not be reached or did not answer in time.
   */
  async post(notification: CloudNotification): Promise<number> {
    const body = JSON.stringify(notification);
    const response = await fetch(this.config.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'facebookexternalua',
        'x-hub-signature-256': hubSignature(body, this.config.META_APP_SECRET),
      },
      body,
      signal: AbortSignal.any([AbortSignal.timeout(NOTIFY_TIMEOUT_MS), this.stopping.signal]),
    });
    await response.arrayBuffer().catch(() => undefined); // read to the end so the connection is reused
    return response.status;
  }

  /** Posts until the gateway answers 200, pausing longer each time; false once every attempt failed (logged, never thrown). */
  async deliver(notification: CloudNotification, what: string): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      const failure = await this.post(notification).then(
        (status) => (status === 200 ? null : `the gateway answered ${status}`),
        describeFailure,
      );
      if (failure === null) return true;
      if (this.stopping.signal.aborted) {
        this.logger.debug(`abandoned ${what}: the sandbox is shutting down`);
        return false;
      }
      if (attempt >= RETRY_DELAYS_MS.length) {
        this.logger.warn(`gave up on ${what} after ${attempt + 1} attempts: ${failure}`);
        return false;
      }
      this.logger.debug(`${what}: ${failure}; retrying in ${RETRY_DELAYS_MS[attempt]} ms`);
      await sleep(RETRY_DELAYS_MS[attempt], undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
  }
}
