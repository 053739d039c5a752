import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId } from '@parley/contracts';
import { BackgroundWorker, urlViolation } from '@parley/service-kit';
import robotsParser from 'robots-parser';
import { DataSource } from 'typeorm';
import { AgentsStore } from '../../agents/agents.store';
import { AgentServiceConfig } from '../../config/agent-service.config';
import { USER_AGENT, fetchText } from '../document-fetcher';
import { DocumentProcessor } from '../document-processor';
import { DocumentRejected } from '../document-rejected';
import { DocumentsStore } from '../documents.store';
import { oneClaimAtATime } from '../one-claim-at-a-time';
import { DocumentImportsStore, type ClaimedImport } from './document-imports.store';
import { planImport } from './import-plan';
import { pageTitle, readSitemap } from './sitemap';

/** The most live documents an agent may have from imports: a sitemap of thousands of pages is not what an FAQ needs. */
export const MAX_DOCUMENTS_PER_AGENT = 500;
/** A sitemap file is at most 50 MiB by the protocol; this one reads 10. */
const SITEMAP_MAX_BYTES = 10 * 1024 * 1024;
const ROBOTS_MAX_BYTES = 512 * 1024;
/** Sitemaps of an index read at most (each may list 50,000 pages; the import adds at most 500). */
const MAX_NESTED_SITEMAPS = 20;
const LEASE_MS = 5 * 60 * 1000;
const MAX_ATTEMPTS = 3;
const SWEEP_MS = 30_000;

/**
 * Works the queued sitemap imports (CONTRACT.md §19), one at a time per instance: reads robots.txt and the sitemap (an
 * index's sitemaps too), plans which pages become documents (planImport), and adds them in the transaction that
 * completes the import, so a crash before it leaves nothing and the next claim starts again. The documents are then
 * processed like any `url` document.
 */
@Injectable()
export class SitemapImporter extends BackgroundWorker {
  private readonly logger = new Logger(SitemapImporter.name);
  protected readonly loop = oneClaimAtATime({
    name: 'sitemap importer',
    claim: () => this.imports.claim(LEASE_MS),
    nextDueInMs: () => this.imports.earliestLeaseEndsInMs(),
    work: (claimed) => this.work(claimed),
    sweepMs: SWEEP_MS,
    logger: this.logger,
  });

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly imports: DocumentImportsStore,
    private readonly documents: DocumentsStore,
    private readonly agents: AgentsStore,
    private readonly processor: DocumentProcessor,
    private readonly config: AgentServiceConfig,
  ) {
    super();
  }


  private async work(claim: ClaimedImport): Promise<void> {
    if (claim.attempts > MAX_ATTEMPTS) return this.imports.fail(claim, `the import did not complete after ${MAX_ATTEMPTS} attempts`);
    const production = this.config.isProduction;
    let pages: string[];
    try {
      pages = await this.sitemapPages(claim.sitemap_url);
    } catch (err) {
      if (err instanceof DocumentRejected) return this.imports.fail(claim, `the sitemap could not be read: ${err.message}`);
      throw err;
    }
    const robotsUrl = new URL('/robots.txt', claim.sitemap_url).toString();
    const robots = robotsParser(robotsUrl, (await fetchText(robotsUrl, production, ROBOTS_MAX_BYTES).catch(() => null)) ?? '');
    const live = await this.documents.liveUrls(claim.tenantId, claim.agentId);
    const room = Math.max(0, Math.min(claim.max_pages, MAX_DOCUMENTS_PER_AGENT - live.count));
    const plan = await planImport(pages, claim.sitemap_url, {
      allowed: (url) => robots.isAllowed(url, USER_AGENT) !== false,
      violation: (url) => urlViolation(url, production),
      known: live.urls,
      room,
      roomReason:
        room < claim.max_pages ? `the agent has ${MAX_DOCUMENTS_PER_AGENT} documents, the most an import may bring it to` : `over the ${claim.max_pages} pages this import may add (max_pages)`,
    });
    const agent = await this.agents.findLive(claim.tenantId, claim.agentName);
    if (!agent || agent.id !== claim.agentId) return this.imports.fail(claim, 'the agent was deleted');
    const completed = await this.db.transaction(async (tx) => {
      const added = plan.add.map((url) => ({ id: newId('doc'), url, title: pageTitle(url) }));
      if (!(await this.imports.complete(tx, claim, { pagesFound: new Set(pages).size, added: added.length, skipped: plan.skipped }))) return false;
      await this.documents.insertPages(tx, claim.tenantId, { id: claim.agentId, name: claim.agentName }, added, claim.refresh);
      return true;
    });
    if (completed) {
      this.processor.wake();
      this.logger.log(`sitemap import ${claim.id}: ${plan.add.length} pages added, ${plan.skipped.length} skipped`);
    }
  }

  /** The pages a sitemap lists, an index's sitemaps read in turn (one level, as the protocol has it). */
  private async sitemapPages(sitemapUrl: string): Promise<string[]> {
    const read = async (url: string) => {
      const content = await fetchText(url, this.config.isProduction, SITEMAP_MAX_BYTES);
      if (content === null) throw new DocumentRejected('the URL answered 404');
      return readSitemap(content);
    };
    const top = await read(sitemapUrl);
    const pages = [...top.pages];
    for (const nested of top.sitemaps.slice(0, MAX_NESTED_SITEMAPS)) {
      if (new URL(nested, sitemapUrl).origin !== new URL(sitemapUrl).origin) continue;
      pages.push(...(await read(nested)).pages);
    }
    if (pages.length === 0 && top.sitemaps.length === 0) throw new DocumentRejected('it lists no pages (is it a sitemap?)');
    return pages;
  }
}
