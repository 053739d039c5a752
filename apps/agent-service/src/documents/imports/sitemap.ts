import { XMLParser } from 'fast-xml-parser';

/** What a sitemap lists: pages, and (a sitemap index) further sitemaps. */
export interface SitemapEntries {
  pages: string[];
  sitemaps: string[];
}

const parser = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, processEntities: true, parseTagValue: false, trimValues: true });

/**
 * Reads a sitemap (sitemaps.org): an XML `<urlset>` of `<url><loc>`, a `<sitemapindex>` of `<sitemap><loc>`, or the
 * text format (one address per line). Anything else lists nothing.
 */
export function readSitemap(content: string): SitemapEntries {
  const text = content.replace(/^\uFEFF/, '').trim();
  if (!text.startsWith('<')) {
    return { pages: text.split(/\r?\n/).map((l) => l.trim()).filter((l) => /^https?:\/\//i.test(l)), sitemaps: [] };
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text) as Record<string, unknown>;
  } catch {
    return { pages: [], sitemaps: [] };
  }
  const locs = (list: unknown): string[] =>
    (Array.isArray(list) ? list : list === undefined ? [] : [list]).flatMap((entry) => {
      const loc = (entry as { loc?: unknown } | null)?.loc;
      return typeof loc === 'string' && loc.trim() ? [loc.trim()] : [];
    });
  const urlset = doc.urlset as { url?: unknown } | undefined;
  const index = doc.sitemapindex as { sitemap?: unknown } | undefined;
  return { pages: locs(urlset?.url), sitemaps: locs(index?.sitemap) };
}

/**
 * Whether a page is under its sitemap (sitemaps.org: a sitemap speaks only for its own host and the folder it is in):
 * same protocol, host and port, and a path inside the sitemap's folder.
 */
export function isUnderSitemap(page: string, sitemapUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(page);
  } catch {
    return false;
  }
  const sitemap = new URL(sitemapUrl);
  const folder = sitemap.pathname.slice(0, sitemap.pathname.lastIndexOf('/') + 1);
  return url.origin === sitemap.origin && url.pathname.startsWith(folder);
}

/** A page's title as a document: its host and path, without a trailing slash ("example.com/pricing"). */
export function pageTitle(page: string): string {
  const url = new URL(page);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.host}${path}`.slice(0, 200);
}
