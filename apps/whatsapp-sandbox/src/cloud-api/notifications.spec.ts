import { createHmac } from 'node:crypto';
import { hubSignature, inboundTextNotification, statusNotification, unixSeconds } from './notifications';

const business = { phoneNumberId: '106540352242922', phoneNumber: '+12015550100', wabaId: '102290129340398' };

describe('Cloud API notifications', () => {
  it('builds the inbound text notification exactly as Meta sends it', () => {
    const at = new Date('2025-06-08T20:59:43.512Z');
    expect(inboundTextNotification(business, { id: 'wamid.ABC', from: '+16505551234', body: 'Does it come in another color?', at })).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '12015550100', phone_number_id: '106540352242922' },
                contacts: [{ profile: { name: 'Sandbox Customer' }, wa_id: '16505551234' }],
                messages: [{ from: '16505551234', id: 'wamid.ABC', timestamp: '1749416383', type: 'text', text: { body: 'Does it come in another color?' } }],
              },
              field: 'messages',
            },
          ],
        },
      ],
    });
  });

  it('builds a status notification with digits-only numbers and echoes biz_opaque_callback_data only when set', () => {
    const at = new Date('2025-06-15T23:27:53Z');
    const plain = statusNotification(business, { messageId: 'wamid.XYZ', status: 'delivered', recipient: '+16505551234', at });
    expect(plain.entry[0].changes[0]).toEqual({
      value: {
        messaging_product: 'whatsapp',
        metadata: { display_phone_number: '12015550100', phone_number_id: '106540352242922' },
        statuses: [{ id: 'wamid.XYZ', status: 'delivered', timestamp: '1750030073', recipient_id: '16505551234' }],
      },
      field: 'messages',
    });
    const tagged = statusNotification(business, { messageId: 'wamid.XYZ', status: 'read', recipient: '+16505551234', at, bizOpaqueCallbackData: 'ten_1' });
    expect(tagged.entry[0].changes[0].value.statuses?.[0]).toMatchObject({ status: 'read', biz_opaque_callback_data: 'ten_1' });
  });

  it('writes timestamps as whole Unix seconds in a string', () => {
    expect(unixSeconds(new Date(1_700_000_000_999))).toBe('1700000000');
  });

  it('signs with sha256=<hex HMAC-SHA256> of the exact bytes (RFC 4231-style known answer)', () => {
    expect(hubSignature('The quick brown fox jumps over the lazy dog', 'key')).toBe(
      'sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
    // UTF-8 bytes, not a re-encoding: emoji and "@" are where naive verifiers break
    const body = JSON.stringify({ text: 'café 🍰 a@b.co' });
    expect(hubSignature(body, 's3cret')).toBe(`sha256=${createHmac('sha256', 's3cret').update(Buffer.from(body, 'utf8')).digest('hex')}`);
    expect(hubSignature(Buffer.from(body, 'utf8'), 's3cret')).toBe(hubSignature(body, 's3cret'));
  });
});
