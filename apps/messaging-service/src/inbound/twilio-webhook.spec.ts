import { parseTwilioSmsWebhook } from './twilio-webhook';

const at = '2026-11-28T12:00:00.000Z';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('Twilio SMS webhooks', () => {
  it('reads an inbound SMS as a text message from the customer', () => {
    const event = parseTwilioSmsWebhook(form({ MessageSid: 'SM1', SmsStatus: 'received', From: '+14155550100', To: '+14155550199', Body: 'Hi there', NumMedia: '0' }), at);
    expect(event).toEqual({ kind: 'inbound', message: { providerMessageId: 'SM1', from: '+14155550100', fromUserId: null, type: 'text', text: 'Hi there', sentAt: null, contactName: null } });
  });

  it.each([
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['undelivered', 'failed'],
    ['failed', 'failed'],
  ])('maps MessageStatus %s to %s', (twilio, ours) => {
    const event = parseTwilioSmsWebhook(form({ MessageSid: 'SM2', MessageStatus: twilio, ErrorCode: '30003', From: '+14155550199', To: '+14155550100' }), at);
    expect(event).toMatchObject({ kind: 'status', providerMessageId: 'SM2', status: { status: ours, at } });
    if (ours === 'failed') expect(event).toMatchObject({ status: { error: { code: '30003' } } });
  });

  it('ignores queued (our sent says it already) and bodies without a sid', () => {
    expect(parseTwilioSmsWebhook(form({ MessageSid: 'SM3', MessageStatus: 'queued' }), at).kind).toBe('ignored');
    expect(parseTwilioSmsWebhook(form({ Body: 'x', From: '+14155550100' }), at).kind).toBe('ignored');
  });
});
