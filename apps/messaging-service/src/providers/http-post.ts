import http from 'node:http';
import https from 'node:https';

/**
 * Kept-alive connections to the providers. `fetch` (undici with web streams, an AbortSignal per call) cost about as
 * much CPU as the rest of a send; a plain request on a pooled socket does the same work for a fraction of it.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 128 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 128 }),
};

export interface JsonAnswer {
  status: number;
  /** The parsed body; null when it is not JSON. */
  body: unknown;
}

/** Raised when no full answer came within the time-out (the same name `fetch` uses, see networkError). */
class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** A connection failure, shaped as `fetch` reports it: the system error (with its `code`) as the cause. */
class NetworkError extends Error {
  constructor(override readonly cause: Error) {
    super(`request failed: ${cause.message}`);
  }
}

/** POSTs a JSON body and reads the JSON answer, all within `timeoutMs`. */
export function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<JsonAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const agent = agents[target.protocol as keyof typeof agents];
    if (!agent) return reject(new NetworkError(new Error(`unsupported protocol ${target.protocol}`)));
    const transport = target.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body);
    const request = transport.request(target, { method: 'POST', agent, headers: { ...headers, 'content-length': String(payload.length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, body: parseJson(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    const timer = setTimeout(() => request.destroy(new TimeoutError(`no answer within ${timeoutMs} ms`)), timeoutMs);
    function fail(err: Error): void {
      clearTimeout(timer);
      reject(err instanceof TimeoutError ? err : new NetworkError(err));
    }
    request.on('error', fail);
    request.end(payload);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
