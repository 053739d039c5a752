import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { isPublicAddress, publicOnlyLookup, urlHost } from '@parley/service-kit';

/** Response bytes read at most (enough to drain a typical answer so the connection can be reused). */
export const RESPONSE_READ_CAP_BYTES = 16 * 1024;
/** Response text kept for the delivery log. */
export const RESPONSE_EXCERPT_CHARS = 1024;

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Refuse non-public addresses at connect time (production). */
  publicOnly: boolean;
  signal?: AbortSignal;
}

export interface WebhookPostResult {
  /** null when no response arrived (refused, reset, timed out, blocked). */
  statusCode: number | null;
  headers: IncomingHttpHeaders;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
}

/**
 * POSTs webhook bodies with node:http(s): never follows redirects, one deadline for connect + headers + the capped
 * body read, keep-alive connections per origin, and (in production) connections only to public addresses.
 */
@Injectable()
export class WebhookHttpClient implements OnApplicationShutdown {
  // As many sockets per origin as attempts one endpoint may have in flight (PER_ENDPOINT_IN_FLIGHT), all kept alive
  // between attempts: a busy endpoint then never pays a new connection per delivery.
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 16 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 16 });

  async post(req: WebhookPost): Promise<WebhookPostResult> {
    const started = performance.now();
    const deadline = Date.now() + req.timeoutMs;
    let result = await this.once(req, deadline, started);
    // A kept-alive socket the receiver closed while idle fails on reuse; Node's documented answer is to retry once.
    if (result.reusedSocketReset && Date.now() < deadline) result = await this.once(req, deadline, started);
    return result.value;
  }

  private once(req: WebhookPost, deadline: number, started: number): Promise<{ value: WebhookPostResult; reusedSocketReset: boolean }> {
    const took = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return Promise.resolve({ value: failure('invalid URL', took()), reusedSocketReset: false });
    }
    const host = urlHost(url);
    if (req.publicOnly && isIP(host) && !isPublicAddress(host)) {
      return Promise.resolve({ value: failure(`${host} is not a public address`, took()), reusedSocketReset: false });
    }
    const secure = url.protocol === 'https:';

    return new Promise((resolve) => {
      let settled = false;
      let statusCode: number | null = null;
      let headers: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (error: string | null, reusedSocketReset = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const text = size > 0 ? Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_CHARS) : null;
        resolve({ value: { statusCode, headers, error, responseExcerpt: text, durationMs: took() }, reusedSocketReset });
      };

      const request = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        lookup: req.publicOnly ? publicOnlyLookup : undefined,
        signal: req.signal,
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish(statusCode === null ? `timed out after ${Math.round(performance.now() - started)} ms` : null);
      }, Math.max(1, deadline - Date.now()));

      request.on('error', (err: NodeJS.ErrnoException) => {
        finish(describe(err), err.code === 'ECONNRESET' && request.reusedSocket && statusCode === null);
      });
      request.on('response', (res) => {
        statusCode = res.statusCode ?? null;
        headers = res.headers;
        res.on('data', (chunk: Buffer) => {
          if (size >= RESPONSE_READ_CAP_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_READ_CAP_BYTES) {
            // Enough for the log: stop reading rather than let a receiver stream into our memory.
            res.destroy();
            finish(null);
          }
        });
        res.on('end', () => finish(null));
        res.on('close', () => finish(null));
        res.on('error', () => finish(null));
      });
      request.end(req.body);
    });
  }

  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function failure(error: string, durationMs: number): WebhookPostResult {
  return { statusCode: null, headers: {}, error, responseExcerpt: null, durationMs };
}

function describe(err: NodeJS.ErrnoException): string {
  if (err.name === 'AbortError') return 'aborted';
  return err.code ? `${err.code}: ${err.message}` : err.message;
}
