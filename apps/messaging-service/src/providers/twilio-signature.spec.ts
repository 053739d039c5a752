import { isValidTwilioSignature, twilioSignature } from './twilio-signature';

describe('Twilio request signature', () => {
  // The worked example of Twilio's webhook security page (https://www.twilio.com/docs/usage/security).
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };

  it("matches Twilio's documented signature", () => {
    expect(twilioSignature('12345', url, params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    expect(isValidTwilioSignature('12345', url, params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(true);
  });

  it('refuses another token, URL, parameter value, or a missing or truncated signature', () => {
    expect(isValidTwilioSignature('54321', url, params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(false);
    expect(isValidTwilioSignature('12345', 'https://mycompany.com/myapp.php', params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(false);
    expect(isValidTwilioSignature('12345', url, { ...params, Digits: '9999' }, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(false);
    expect(isValidTwilioSignature('12345', url, params, '')).toBe(false);
    expect(isValidTwilioSignature('12345', url, params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ')).toBe(false);
  });
});
