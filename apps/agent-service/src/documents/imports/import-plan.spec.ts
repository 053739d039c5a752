import { planImport, type PageChecks } from './import-plan';

const SITEMAP = 'https://example.com/sitemap.xml';
const checks = (over: Partial<PageChecks> = {}): PageChecks => ({
  allowed: () => true,
  violation: async () => null,
  known: new Set(),
  room: 10,
  roomReason: 'over the 10 pages this import may add',
  ...over,
});

describe('planImport', () => {
  it('adds each page under the sitemap once, in order', async () => {
    const plan = await planImport(['https://example.com/a', 'https://example.com/b', 'https://example.com/a'], SITEMAP, checks());
    expect(plan).toEqual({ add: ['https://example.com/a', 'https://example.com/b'], skipped: [] });
  });

  it('says why each other page is left out: another site, known already, robots.txt, the address rules, the limit', async () => {
    const plan = await planImport(
      ['https://other.com/x', 'https://example.com/known', 'https://example.com/private/y', 'https://example.com/refused', 'https://example.com/ok', 'https://example.com/late'],
      SITEMAP,
      checks({
        known: new Set(['https://example.com/known']),
        allowed: (url) => !url.includes('/private/'),
        violation: async (url) => (url.endsWith('/refused') ? 'url must resolve only to public addresses' : null),
        room: 1,
      }),
    );
    expect(plan.add).toEqual(['https://example.com/ok']);
    expect(plan.skipped).toEqual([
      { url: 'https://other.com/x', reason: 'not under the sitemap (another site or folder)' },
      { url: 'https://example.com/known', reason: 'already a document of this agent' },
      { url: 'https://example.com/private/y', reason: "the site's robots.txt does not allow it" },
      { url: 'https://example.com/refused', reason: 'url must resolve only to public addresses' },
      { url: 'https://example.com/late', reason: 'over the 10 pages this import may add' },
    ]);
  });
});
