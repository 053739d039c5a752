import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's request signature (https://www.twilio.com/docs/usage/security#validating-requests): HMAC-SHA1, keyed with
 * the account's auth token, of the full URL Twilio requested followed by every POST parameter name and value, sorted
 * by name, with no delimiters; base64. The sandbox signs its webhooks the same way.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether `signature` (the `X-Twilio-Signature` header) signs this URL and these parameters; constant time. */
export function isValidTwilioSignature(authToken: string, url: string, params: Record<string, string>, signature: string): boolean {
  if (typeof signature !== 'string' || signature.length === 0) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
