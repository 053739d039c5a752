import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { SECRET_PREFIX, generateSecret, sign, webhookHeaders } from './signing';

const body = JSON.stringify({ event: 'message.received', message: 'Hi — café ☕', tenant_id: 'ten_1', agent_response: null });

describe('Standard Webhooks signing', () => {
  it('generates whsec_ secrets of 32 random bytes', () => {
    const secret = generateSecret();
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it('produces headers a tenant verifies with the standardwebhooks library', () => {
    const secret = generateSecret();
    const headers = webhookHeaders({ messageId: 'evt_01JABCDEF', timestampSeconds: Math.floor(Date.now() / 1000), body, secrets: [secret] });
    expect(headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'evt_01JABCDEF' });
    expect(headers['user-agent']).toMatch(/Parley/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('matches the library signature for the same id, timestamp and body', () => {
    const secret = generateSecret();
    const at = new Date('2025-01-02T03:04:05Z');
    expect(sign(secret, 'evt_1', Math.floor(at.getTime() / 1000), body)).toBe(new Webhook(secret).sign('evt_1', at, body));
  });

  it('signs with both secrets during a rotation; either verifies', () => {
    const current = generateSecret();
    const previous = generateSecret();
    const headers = webhookHeaders({ messageId: 'evt_2', timestampSeconds: Math.floor(Date.now() / 1000), body, secrets: [current, previous] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });

  it('fails verification for another secret, a changed body or a stale timestamp', () => {
    const secret = generateSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders({ messageId: 'evt_3', timestampSeconds: now, body, secrets: [secret] });
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body.replace('Hi', 'Ho'), headers)).toThrow(WebhookVerificationError);
    const stale = webhookHeaders({ messageId: 'evt_3', timestampSeconds: now - 600, body, secrets: [secret] });
    expect(() => new Webhook(secret).verify(body, stale)).toThrow(/too old/);
  });
});
