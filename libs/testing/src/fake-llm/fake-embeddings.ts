import { createHash } from 'node:crypto';
import type { RequestRejection } from './chat-request-rules';

/** Length of the stand-in's vectors (OpenAI's small model has 1536; any length works for a client). */
export const FAKE_EMBEDDING_DIMENSIONS = 256;

const REQUEST_FIELDS = new Set(['input', 'model', 'encoding_format', 'dimensions', 'user']);

/**
 * A deterministic embedding: a hashed bag of words (accents folded, lower case, words of two letters or more),
 * L2-normalised. Texts sharing words point the same way, unrelated texts are near orthogonal, and the same text
 * always gets the same vector, so retrieval tests are stable.
 */
export function fakeEmbedding(text: string, dimensions = FAKE_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]{2,}/gu) ?? [];
  for (const word of words) {
    const hash = createHash('sha256').update(word).digest();
    vector[hash.readUInt32BE(0) % dimensions] += hash[4] & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

/** The `POST /v1/embeddings` answer, or the 400 OpenAI would give. */
export function embeddingsResponse(body: unknown): { rejection: RequestRejection } | { response: unknown } {
  const reject = (message: string, param: string | null, code: string | null = null) => ({ rejection: { message, param, code } });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return reject('We could not parse the JSON body of your request.', null);
  const request = body as Record<string, unknown>;
  const extra = Object.keys(request).find((k) => !REQUEST_FIELDS.has(k));
  if (extra) return reject(`Unrecognized request argument supplied: ${extra}`, null);
  if (typeof request.model !== 'string' || request.model === '') return reject('you must provide a model parameter', null);
  const inputs = typeof request.input === 'string' ? [request.input] : request.input;
  if (!Array.isArray(inputs) || inputs.length === 0 || inputs.length > 2048 || !inputs.every((i) => typeof i === 'string' && i !== '')) {
    return reject("'input' must be a non-empty string or an array of 1 to 2048 non-empty strings.", 'input', 'invalid_value');
  }
  const format = request.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') return reject(`Invalid value for 'encoding_format': '${String(format)}'. Supported values are: 'float' and 'base64'.`, 'encoding_format', 'invalid_value');
  const dimensions = request.dimensions ?? FAKE_EMBEDDING_DIMENSIONS;
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4096) return reject("Invalid value for 'dimensions'.", 'dimensions', 'invalid_value');
  const data = (inputs as string[]).map((input, index) => {
    const vector = fakeEmbedding(input, dimensions);
    return { object: 'embedding', index, embedding: format === 'float' ? vector : Buffer.from(new Float32Array(vector).buffer).toString('base64') };
  });
  const tokens = (inputs as string[]).reduce((n, i) => n + i.split(/\s+/).length, 0);
  return { response: { object: 'list', data, model: request.model, usage: { prompt_tokens: tokens, total_tokens: tokens } } };
}
