import { createHmac } from 'node:crypto';
import * as fc from 'fast-check';
import { webhookCase, type FuzzCase } from './cases.cjs';
import { violation } from './fuzz.cjs';

const APP_SECRET = 'fuzz-unit-app-secret';

const signed = (body: string, contentType = 'application/json'): FuzzCase => ({
  route: 'POST /webhooks/whatsapp (signed)',
  method: 'POST',
  path: '/webhooks/whatsapp',
  headers: { 'content-type': contentType, 'x-hub-signature-256': 'sha256=…' },
  body,
  signed: true,
});

/** A well-formed problem+json answer with the given status. */
const problemAnswer = (status: number) => ({
  status,
  headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req-1' },
  text: JSON.stringify({ type: 'https://parley.dev/problems/malformed-json', title: 'Bad Request', status, detail: 'The body is not valid JSON.', request_id: 'req-1' }),
});

describe('fuzz oracle: validly signed provider notifications (CONTRACT §7)', () => {
  it.each([
    ['not JSON', 400, 'not json at all', 'application/json'],
    ['truncated JSON', 400, '{"object":', 'application/json'],
    ['plain text', 415, 'hello', 'text/plain'],
    ['a notification', 400, '{"object":"whatsapp_business_account","entry":[]}', 'application/json'],
  ])('fails a signed body that is %s answered %s, even as a well-formed problem', (_label, status, body, contentType) => {
    expect(violation(signed(body, contentType), problemAnswer(status))).toBe(`a validly signed notification answered ${status} (CONTRACT §7: always 200)`);
  });

  it('passes a signed body of any kind answered 200', () => {
    for (const body of ['not json at all', '', '{"object":"whatsapp_business_account","entry":[]}']) {
      expect(violation(signed(body), { status: 200, headers: {}, text: '' })).toBeNull();
    }
  });
});

describe('fuzz cases: signed provider notifications', () => {
  const cases = fc.sample(webhookCase({ appSecret: APP_SECRET, phoneNumberIds: ['106540352242922'] }), { numRuns: 2000, seed: 16 });
  const isJson = (text: string) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };

  it('signs every body with the app secret (X-Hub-Signature-256 over the raw bytes)', () => {
    for (const c of cases) {
      expect(c).toMatchObject({ method: 'POST', path: '/webhooks/whatsapp', signed: true });
      expect(c.headers['x-hub-signature-256']).toBe(`sha256=${createHmac('sha256', APP_SECRET).update(c.body ?? '').digest('hex')}`);
    }
  });

  it('includes bodies that are not JSON and content types other than JSON, so the suite exercises them', () => {
    const notJson = cases.filter((c) => !isJson(c.body ?? '')).length;
    const otherTypes = cases.filter((c) => !c.headers['content-type'].startsWith('application/json')).length;
    // About 1 in 10 and 1 in 9 (their weights); far from none.
    expect(notJson).toBeGreaterThan(100);
    expect(otherTypes).toBeGreaterThan(100);
  });
});
