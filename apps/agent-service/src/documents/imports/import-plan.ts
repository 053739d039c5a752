import { isUnderSitemap } from './sitemap';

/** Why a page of the sitemap did not become a document. */
export interface SkippedPage {
  url: string;
  reason: string;
}

export interface ImportPlan {
  /** The pages to add, in the sitemap's order. */
  add: string[];
  skipped: SkippedPage[];
}

export interface PageChecks {
  /** robots.txt lets the fetcher read it. */
  allowed(url: string): boolean;
  /** Why the address rules refuse it (CONTRACT.md §5), or null. */
  violation(url: string): Promise<string | null>;
  /** The agent has a document of that address already. */
  known: ReadonlySet<string>;
  /** Pages this import may add: its max_pages, and what the agent's document limit leaves. */
  room: number;
  /** Why a page past `room` is left out. */
  roomReason: string;
}

/** Which of a sitemap's pages become documents, and why each other one does not (each page once). */
export async function planImport(pages: readonly string[], sitemapUrl: string, checks: PageChecks): Promise<ImportPlan> {
  const add: string[] = [];
  const skipped: SkippedPage[] = [];
  const seen = new Set<string>();
  for (const url of pages) {
    if (seen.has(url)) continue;
    seen.add(url);
    const reason = !isUnderSitemap(url, sitemapUrl)
      ? 'not under the sitemap (another site or folder)'
      : checks.known.has(url)
        ? 'already a document of this agent'
        : !checks.allowed(url)
          ? "the site's robots.txt does not allow it"
          : ((await checks.violation(url)) ?? (add.length >= checks.room ? checks.roomReason : null));
    if (reason) skipped.push({ url, reason });
    else add.push(url);
  }
  return { add, skipped };
}
