import { isValidMetaSignature, metaPartitionKey, metaSignature } from './meta-signature';

const SECRET = 'app-secret';

describe('Meta webhook signature', () => {
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
  // Computed once outside the code under test:
  //   printf '%s' '{"object":"whatsapp_business_account","entry":[]}' | openssl dgst -sha256 -hmac 'app-secret'
  const good = 'sha256=d3e4f9da0ce6c71ab3dba55929b8eeeee2455349e534924ead19f98d143e904f';

  it('is the HMAC-SHA256 of the raw body, as published test vectors give it', () => {
    expect(metaSignature(body, SECRET)).toBe(good);
    // RFC 4231, test case 2 (key "Jefe")
    expect(metaSignature('what do ya want for nothing?', 'Jefe')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('accepts the HMAC-SHA256 of the raw body (hex, either case)', () => {
    expect(isValidMetaSignature(body, good, SECRET)).toBe(true);
    expect(isValidMetaSignature(body, good.toUpperCase().replace('SHA256=', 'sha256='), SECRET)).toBe(true);
  });

  it('refuses a missing, malformed, truncated or foreign signature, and a changed body', () => {
    expect(isValidMetaSignature(body, undefined, SECRET)).toBe(false);
    expect(isValidMetaSignature(undefined, good, SECRET)).toBe(false);
    expect(isValidMetaSignature(body, good.slice(0, -2), SECRET)).toBe(false);
    expect(isValidMetaSignature(body, good.replace('sha256=', 'sha1='), SECRET)).toBe(false);
    expect(isValidMetaSignature(body, metaSignature(body, 'other'), SECRET)).toBe(false);
    expect(isValidMetaSignature(Buffer.from(`${body.toString()} `), good, SECRET)).toBe(false);
  });
});

describe('metaPartitionKey', () => {
  it('is the first phone_number_id of the notification', () => {
    const body = {
      entry: [
        { changes: [{ value: { statuses: [] } }] },
        { changes: [{ value: { metadata: { phone_number_id: '1065' } } }, { value: { metadata: { phone_number_id: '2000' } } }] },
      ],
    };
    expect(metaPartitionKey(body)).toBe('1065');
  });

  it("is 'unknown' for anything else", () => {
    for (const body of [undefined, null, 'text', [], {}, { entry: {} }, { entry: [{ changes: [{ value: null }] }] }, { entry: [null] }]) {
      expect(metaPartitionKey(body)).toBe('unknown');
    }
  });
});
