import type { CloudApiErrorBody } from './cloud-api.types';
import { ProviderError } from './whatsapp-provider';

/**
 * Cloud API error codes that heal by themselves: unknown/temporary errors (1, 2, 131000, 131016), rate limits
 * (4, 80007, 130429, and 131056 for one recipient) and account maintenance (131057). Everything else is terminal.
 */
export const RETRYABLE_CLOUD_API_CODES: ReadonlySet<number> = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 131057]);

/** Pair rate limit: too many messages to the same recipient in a short time (that pair waits, others go on). */
export const PAIR_RATE_LIMIT_CODE = '131056';

/** Connection failures that mean the request never reached the provider: repeating it cannot deliver twice. */
const NOT_SENT_CAUSES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Maps a non-2xx Cloud API answer (`{error: {code, message, error_data}}`) to a ProviderError. */
export function cloudApiError(httpStatus: number, body: unknown): ProviderError {
  const httpRetriable = httpStatus >= 500 || httpStatus === 429 || httpStatus === 408;
  const error = (body as CloudApiErrorBody | null)?.error;
  if (!error || typeof error.code !== 'number') {
    return new ProviderError(`http_${httpStatus}`, `The WhatsApp provider answered HTTP ${httpStatus}`, httpRetriable);
  }
  const details = [error.error_data?.details, error.fbtrace_id && `fbtrace_id ${error.fbtrace_id}`].filter(Boolean).join('; ');
  return new ProviderError(String(error.code), errorTitle(error.message, error.error_data?.details, httpStatus), httpRetriable || RETRYABLE_CLOUD_API_CODES.has(error.code), details || undefined);
}

/** `message` is "(#code) title"; keep the title. */
function errorTitle(message: string | undefined, details: string | undefined, httpStatus: number): string {
  const title = message?.replace(/^\(#\d+\)\s*/, '').trim();
  return title || details || `The WhatsApp provider answered HTTP ${httpStatus}`;
}

/**
 * A request that got no answer. Refused connections never reached the provider; after a time-out or a connection
 * lost mid-request, whether the provider took the message is unknown.
 */
export function networkError(err: unknown): ProviderError {
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new ProviderError('timeout', 'The WhatsApp provider did not answer in time', true, undefined, true);
  const cause = (err as { cause?: { code?: string } })?.cause?.code;
  return new ProviderError('network_error', 'The WhatsApp provider could not be reached', true, cause, !(cause && NOT_SENT_CAUSES.has(cause)));
}
