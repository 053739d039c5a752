import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker } from '@parley/service-kit';
import { isDeepStrictEqual } from 'node:util';
import { AgentServiceConfig } from '../config/agent-service.config';
import { fetchIfChanged } from './document-fetcher';
import { passagesOf, type ReadyListener } from './document-processor';
import { DocumentRejected } from './document-rejected';
import { DocumentsStore, type DueRefresh, type RefreshOutcome } from './documents.store';
import { oneClaimAtATime } from './one-claim-at-a-time';

/** A refresh's lease: one fetch (15 s at most) and its parsing; a refresher that died loses it after this. */
const REFRESH_LEASE_MS = 2 * 60 * 1000;
/** The longest sleep: a refresh another instance scheduled, or a lease that ran out, is found within this. */
const SWEEP_MS = 60_000;

/**
 * Fetches `url` documents again on their schedule (CONTRACT.md §19), one at a time per instance: a conditional request
 * (`If-None-Match`, `If-Modified-Since`), so an unchanged page costs one request and no parsing; a changed page's
 * passages replace the old ones in one statement and are announced on `document.changed`; a page served again with
 * the same passages is unchanged; a failure keeps the last good passages and says why. Due times are in the table, so
 * a restart or another instance carries on where this one stopped.
 */
@Injectable()
export class DocumentRefresher extends BackgroundWorker {
  private readonly logger = new Logger(DocumentRefresher.name);
  private onUpdated: ReadyListener = async () => undefined;
  protected readonly loop = oneClaimAtATime({
    name: 'document refresher',
    claim: () => this.documents.claimDueRefresh(REFRESH_LEASE_MS),
    nextDueInMs: () => this.documents.nextRefreshInMs(),
    work: (due) => this.refresh(due),
    sweepMs: SWEEP_MS,
    logger: this.logger,
  });

  constructor(
    private readonly documents: DocumentsStore,
    private readonly config: AgentServiceConfig,
  ) {
    super();
  }

  /** Who announces a document whose page changed (set by DocumentsService, as the processor's whenReady). */
  whenUpdated(listener: ReadyListener): void {
    this.onUpdated = listener;
  }


  private async refresh(due: DueRefresh): Promise<void> {
    const outcome = await this.fetchAgain(due);
    const document = await this.documents.finishRefresh(due, outcome);
    if (document && outcome.status === 'updated') await this.onUpdated(document);
    if (document) this.logger.log(`document ${due.id} refreshed: ${outcome.status}${outcome.status === 'failed' ? ` (${outcome.error})` : ''}`);
  }

  private async fetchAgain(due: DueRefresh): Promise<RefreshOutcome> {
    try {
      const page = await fetchIfChanged(due.url, this.config.isProduction, due.validators);
      if (page === 'not-modified') return { status: 'unchanged', validators: null };
      const validators = { etag: page.etag, lastModified: page.lastModified };
      const passages = await passagesOf(due.id, page.format, page.bytes);
      if (passages.length === 0) return { status: 'failed', error: 'the page has no text any more; the last good version is kept' };
      if (isDeepStrictEqual(passages, await this.documents.passagesOf(due.tenantId, due.id))) return { status: 'unchanged', validators };
      return { status: 'updated', passages, validators };
    } catch (err) {
      if (err instanceof DocumentRejected) return { status: 'failed', error: err.message };
      return { status: 'failed', error: `the page could not be read (${(err as Error).message})` };
    }
  }
}

