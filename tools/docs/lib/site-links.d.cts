export interface BrokenLink {
  page: string;
  href: string;
  reason: string;
}
export function hrefsOf(html: string): string[];
export function idsOf(html: string): Set<string>;
export function targetOf(href: string, fromPage: string, base: string): { file: string; fragment: string } | undefined;
export function brokenLinks(siteDir: string, base?: string): BrokenLink[];
