import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks symmetric secrets: `whsec_` + base64 of the key bytes. */
export const SECRET_PREFIX = 'whsec_';

export const USER_AGENT = 'Parley-Webhooks/1.0 (+https://parley.dev/docs/webhooks)';

/** A new endpoint secret: 32 random bytes (the spec allows 24–64). */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256(key, "id.timestamp.body")>`, keyed with the secret's decoded bytes. */
export function sign(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeadersInput {
  messageId: string;
  timestampSeconds: number;
  body: string;
  /** Every secret that currently signs: the endpoint's, then the previous one during a rotation. */
  secrets: string[];
}

/** The headers every attempt of one event carries, whatever its time and secrets (shown in the delivery log). */
export function deliveryHeaders(messageId: string): Record<string, string> {
  return { 'content-type': 'application/json', 'user-agent': USER_AGENT, 'webhook-id': messageId };
}

/** The request headers of one attempt: Standard Webhooks metadata and one signature per valid secret. */
export function webhookHeaders({ messageId, timestampSeconds, body, secrets }: SignedHeadersInput): Record<string, string> {
  return {
    ...deliveryHeaders(messageId),
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => sign(s, messageId, timestampSeconds, body)).join(' '),
  };
}
