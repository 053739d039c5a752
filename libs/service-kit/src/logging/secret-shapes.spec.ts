import { loggableUrl, redactSecretShapes } from './secret-shapes';

describe('secret shapes', () => {
  const apiKey = `parley_sk_${'A1b_-'.repeat(8)}xyz`;
  const clientSecret = `parley_cs_${'Zz9'.repeat(14)}x`;
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZW5fMSJ9.c2lnbmF0dXJl_-x';
  const webhookSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/=';

  it('redacts API keys, client secrets, JWTs and webhook secrets wherever they are', () => {
    const text = `/api/v1/api-keys/${apiKey}/x?${clientSecret} Bearer ${jwt} ${webhookSecret}`;
    const redacted = redactSecretShapes(text);
    for (const secret of [apiKey, clientSecret, jwt, webhookSecret]) expect(redacted).not.toContain(secret);
    expect(redacted).toBe('/api/v1/api-keys/[redacted]/x?[redacted] Bearer [redacted] [redacted]');
  });

  it('leaves ordinary ids and text alone', () => {
    expect(redactSecretShapes('/api/v1/webhooks/whk_01JABC/deliveries/dlv_01JXYZ')).toBe('/api/v1/webhooks/whk_01JABC/deliveries/dlv_01JXYZ');
  });

  it('drops the query string of a URL for logs', () => {
    expect(loggableUrl(`/api/v1/messages/msg_1?access_token=${jwt}`)).toBe('/api/v1/messages/msg_1');
    expect(loggableUrl(undefined)).toBe('');
  });
});
