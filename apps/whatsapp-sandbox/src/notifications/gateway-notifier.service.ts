import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest } from 'node:http';
import { setMaxListeners } from 'node:events';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { hubSignature, type CloudNotification } from '../cloud-api/notifications';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';

/** Time the gateway gets to answer one notification. */
export const NOTIFY_TIMEOUT_MS = 10_000;
/** Connections kept open to the gateway (the dispatcher's POSTs in flight share them). */
const MAX_SOCKETS = 64;

/** Why a POST failed, in words: fetch's own message ("fetch failed") hides the cause (ECONNREFUSED, a time-out). */
export function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause as { code?: string; message?: string } | undefined;
  return cause ? `${err.message} (${cause.code ?? cause.message ?? 'unknown cause'})` : err.message;
}

/**
 * Delivers Cloud API notifications to the gateway's `/webhooks/whatsapp`, signed as Meta signs them. Plain
 * node:http with keep-alive rather than fetch: at hundreds of notifications a second fetch's per-request cost
 * (web streams, abort signals) was most of the sandbox's CPU.
 */
@Injectable()
export class GatewayNotifier implements OnApplicationShutdown {
  private readonly stopping = new AbortController();
  private readonly url: URL;
  private readonly agent: HttpAgent;

  constructor(private readonly config: WhatsappSandboxConfig) {
    // Every POST in flight listens for the stop (and lets go when it ends): more than Node's default 10 at once is the
    // normal load, not a leak, and its warning in the log would say otherwise.
    setMaxListeners(0, this.stopping.signal);
    this.url = new URL(config.webhookUrl);
    this.agent = this.url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }) : new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  }

  /** One signed POST of a notification, serialised here. */
  post(notification: CloudNotification): Promise<number> {
    return this.postBody(JSON.stringify(notification));
  }

  /**
   * One signed POST of exact bytes: those bytes are both signed and sent. Resolves with the gateway's HTTP status;
   * rejects when it could not be reached, did not answer within NOTIFY_TIMEOUT_MS, or `signal` aborted the attempt.
   */
  postBody(body: string, signal?: AbortSignal): Promise<number> {
    const signals = [this.stopping.signal, ...(signal ? [signal] : [])];
    if (signals.some((s) => s.aborted)) return Promise.reject(new Error('aborted: the sandbox is stopping'));
    return new Promise<number>((resolve, reject) => {
      const send = this.url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req: ClientRequest = send(this.url, {
        method: 'POST',
        agent: this.agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'facebookexternalua',
          'x-hub-signature-256': hubSignature(body, this.config.META_APP_SECRET),
        },
      });
      const abort = () => req.destroy(new Error('aborted: the sandbox is stopping'));
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${NOTIFY_TIMEOUT_MS} ms`)), NOTIFY_TIMEOUT_MS);
      const done = () => {
        clearTimeout(timer);
        signals.forEach((s) => s.removeEventListener('abort', abort));
      };
      signals.forEach((s) => s.addEventListener('abort', abort, { once: true }));
      req.on('response', (res) => {
        res.resume(); // read to the end so the connection is reused
        res.on('end', () => {
          done();
          resolve(res.statusCode ?? 0);
        });
        res.on('error', (err) => {
          done();
          reject(err);
        });
      });
      req.on('error', (err) => {
        done();
        reject(err);
      });
      req.end(body);
    });
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
    this.agent.destroy();
  }
}
