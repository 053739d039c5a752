import { createHmac } from 'node:crypto';

/**
 * Signs a webhook as Twilio does (`X-Twilio-Signature`): base64 HMAC-SHA1, keyed with the account's auth token, of the
 * URL followed by every form parameter name and value sorted by name (https://www.twilio.com/docs/usage/security).
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}
