import { cloudApiSendBody } from './cloud-api.adapter';
import { cloudApiError, networkError } from './cloud-api.errors';

describe('Cloud API wire format', () => {
  it('builds the text send body', () => {
    expect(cloudApiSendBody('+16505551234', { type: 'text', text: 'Hello' })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+16505551234',
      type: 'text',
      text: { body: 'Hello' },
    });
  });

  it('carries the correlation as biz_opaque_callback_data (echoed in the statuses)', () => {
    expect(cloudApiSendBody('+16505551234', { type: 'text', text: 'Hello' }, 'msg_1')).toMatchObject({ biz_opaque_callback_data: 'msg_1' });
  });

  it('builds the template send body', () => {
    const template = { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] };
    expect(cloudApiSendBody('+1', { type: 'template', template })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+1',
      type: 'template',
      template,
    });
  });

  it('maps a terminal error to its code and title', () => {
    const err = cloudApiError(400, {
      error: { message: '(#131026) Message undeliverable', type: 'OAuthException', code: 131026, error_data: { messaging_product: 'whatsapp', details: 'not on WhatsApp' }, fbtrace_id: 'Az8' },
    });
    expect(err).toMatchObject({ code: '131026', title: 'Message undeliverable', retriable: false });
    expect(err.details).toContain('fbtrace_id Az8');
  });

  it.each([4, 80007, 130429, 131056, 131000, 131016, 1, 2])('treats code %i as retryable', (code) => {
    expect(cloudApiError(400, { error: { code, message: `(#${code}) x` } }).retriable).toBe(true);
  });

  it('retries any 5xx or 429, even without a Cloud API body', () => {
    expect(cloudApiError(503, 'Service Unavailable')).toMatchObject({ code: 'http_503', retriable: true });
    expect(cloudApiError(429, null).retriable).toBe(true);
    expect(cloudApiError(500, { error: { code: 190, message: 'x' } }).retriable).toBe(true);
    expect(cloudApiError(401, { error: { code: 190, message: '(#190) Access token has expired' } })).toMatchObject({ code: '190', retriable: false });
  });

  it('treats time-outs and refused connections as retryable; only a refused one as surely not sent', () => {
    expect(networkError(Object.assign(new Error('timeout'), { name: 'TimeoutError' }))).toMatchObject({ code: 'timeout', retriable: true, outcomeUnknown: true });
    expect(networkError(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))).toMatchObject({
      code: 'network_error',
      retriable: true,
      details: 'ECONNREFUSED',
      outcomeUnknown: false,
    });
    expect(networkError(new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } }))).toMatchObject({ retriable: true, outcomeUnknown: true });
  });
});
