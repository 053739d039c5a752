import { fetchDocument } from './document-fetcher';
import { DocumentRejected } from './document-rejected';

describe('fetching a URL document in production (the webhook address rules, CONTRACT.md §5)', () => {
  const refusal = (url: string) => fetchDocument(url, true).then(() => null, (err: unknown) => (err instanceof DocumentRejected ? err.message : err));

  it('refuses plain http, and https to loopback, private, link-local (cloud metadata) or IPv4-mapped addresses, before connecting', async () => {
    expect(await refusal('http://example.com/prices')).toBe('url must use https');
    for (const url of ['https://127.0.0.1/prices', 'https://10.0.0.8/', 'https://169.254.169.254/latest/meta-data', 'https://[::ffff:127.0.0.1]/']) {
      expect({ url, refusal: await refusal(url) }).toEqual({ url, refusal: expect.stringContaining('public address') });
    }
  });

  it('refuses a host that resolves to a loopback address', async () => {
    expect(await refusal('https://localhost/prices')).toEqual(expect.stringContaining('public addresses'));
  });
});
