import { isUnderSitemap, pageTitle, readSitemap } from './sitemap';

describe('readSitemap', () => {
  it('reads the pages of a urlset, namespaces and entities included', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>https://example.com/</loc><lastmod>2026-12-01</lastmod></url>
        <url><loc> https://example.com/prices?a=1&amp;b=2 </loc></url>
      </urlset>`;
    expect(readSitemap(xml)).toEqual({ pages: ['https://example.com/', 'https://example.com/prices?a=1&b=2'], sitemaps: [] });
  });

  it('reads a sitemap index as further sitemaps, and a single entry as a list of one', () => {
    const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/pages.xml</loc></sitemap></sitemapindex>`;
    expect(readSitemap(xml)).toEqual({ pages: [], sitemaps: ['https://example.com/pages.xml'] });
  });

  it('reads the text format, one address per line, and lists nothing from what is neither', () => {
    expect(readSitemap('https://example.com/a\n\nnot a url\nhttp://example.com/b\r\n')).toEqual({ pages: ['https://example.com/a', 'http://example.com/b'], sitemaps: [] });
    expect(readSitemap('<html><body>Not found</body></html>')).toEqual({ pages: [], sitemaps: [] });
    expect(readSitemap('<urlset><url><loc>')).toEqual({ pages: [], sitemaps: [] });
  });
});

describe('isUnderSitemap', () => {
  it('takes pages of the same origin inside the sitemap folder only', () => {
    expect(isUnderSitemap('https://example.com/docs/a', 'https://example.com/docs/sitemap.xml')).toBe(true);
    expect(isUnderSitemap('https://example.com/blog/a', 'https://example.com/docs/sitemap.xml')).toBe(false);
    expect(isUnderSitemap('https://other.com/docs/a', 'https://example.com/docs/sitemap.xml')).toBe(false);
    expect(isUnderSitemap('http://example.com/docs/a', 'https://example.com/docs/sitemap.xml')).toBe(false);
    expect(isUnderSitemap('not a url', 'https://example.com/sitemap.xml')).toBe(false);
  });
});

describe('pageTitle', () => {
  it('is the host and path', () => {
    expect(pageTitle('https://example.com/pricing/')).toBe('example.com/pricing');
    expect(pageTitle('https://example.com/')).toBe('example.com');
  });
});
