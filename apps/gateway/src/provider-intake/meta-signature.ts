import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * Checks Meta's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(raw body, app secret)>` in constant time. Must be
 * given the raw bytes as received: any re-serialisation of parsed JSON would change them.
 */
export function isValidMetaSignature(rawBody: Buffer | undefined, header: string | undefined, appSecret: string): boolean {
  if (!rawBody || !header) return false;
  const match = SIGNATURE.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

export function metaSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * The ordering key of a Cloud API notification: its first `entry[].changes[].value.metadata.phone_number_id`, so
 * one number's notifications stay in order; 'unknown' when the body does not have that shape (it is still queued,
 * and messaging-service dead-letters what it cannot understand).
 */
export function metaPartitionKey(body: unknown): string {
  const entries = (body as { entry?: unknown } | null)?.entry;
  if (!Array.isArray(entries)) return 'unknown';
  for (const entry of entries) {
    const changes = (entry as { changes?: unknown } | null)?.changes;
    if (!Array.isArray(changes)) continue;
    for (const change of changes) {
      const id = (change as { value?: { metadata?: { phone_number_id?: unknown } } } | null)?.value?.metadata?.phone_number_id;
      if ((typeof id === 'string' && id.length > 0) || typeof id === 'number') return String(id);
    }
  }
  return 'unknown';
}
