import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker } from '@parley/service-kit';
import type { DocumentFileType, DocumentPassageData } from '@parley/contracts';
import { AgentServiceConfig } from '../config/agent-service.config';
import type { DocumentEntity } from './document.entity';
import { fetchDocument, type PageValidators } from './document-fetcher';
import { extractPassages } from './document-formats';
import { DocumentRejected } from './document-rejected';
import { DocumentsStore, type ProcessingOutcome } from './documents.store';
import { oneClaimAtATime } from './one-claim-at-a-time';

/** How long a claim is the claimer's: a worker that died mid-document loses it after this. */
export const PROCESSING_LEASE_MS = 2 * 60 * 1000;
/** Attempts before a document that keeps failing for no reason of its own (crashes, bugs) is marked failed. */
const MAX_ATTEMPTS = 3;
/**
 * An upload wakes its instance's processor; otherwise it sleeps until the earliest lease runs out (a worker that died
 * mid-document) or, at most, this long: the safety sweep for uploads no wake-up reached (an instance that crashed
 * between accepting a document and processing it).
 */
const SWEEP_MS = 30_000;

/** What the processor hands on when a document became ready (the service announces it). */
export type ReadyListener = (document: DocumentEntity) => Promise<void>;

/**
 * Turns accepted documents into passages, one at a time per instance (PDF parsing is CPU-bound). A document is
 * claimed with a lease (`FOR UPDATE SKIP LOCKED`, so instances never share one); a claim whose worker died is taken
 * again once its lease ran out, so a crash mid-processing resumes. The outcome (`ready` with passages, or `failed`
 * with the reason) is written only while the document is still live and still this claim's.
 */
@Injectable()
export class DocumentProcessor extends BackgroundWorker {
  private readonly logger = new Logger(DocumentProcessor.name);
  private onReady: ReadyListener = async () => undefined;
  // An upload wakes it; otherwise it sleeps until the earliest lease runs out or the sweep. Its first pass at start
  // picks up what was accepted before a restart.
  protected readonly loop = oneClaimAtATime({
    name: 'document processor',
    claim: () => this.documents.claimNext(PROCESSING_LEASE_MS),
    nextDueInMs: () => this.documents.earliestLeaseEndsInMs(),
    work: (claimed) => this.process(claimed),
    sweepMs: SWEEP_MS,
    maxRetryPauseMs: SWEEP_MS,
    logger: this.logger,
  });

  constructor(
    private readonly documents: DocumentsStore,
    private readonly config: AgentServiceConfig,
  ) {
    super();
  }

  /** Who announces a document once it is ready (set by DocumentsService; avoids a constructor cycle). */
  whenReady(listener: ReadyListener): void {
    this.onReady = listener;
  }

  private async process(document: DocumentEntity): Promise<void> {
    if (document.attempts > MAX_ATTEMPTS) {
      await this.finish(document, { status: 'failed', error: `processing did not complete after ${MAX_ATTEMPTS} attempts` });
      return;
    }
    try {
      const { format, bytes, validators } = await this.content(document);
      const passages = await passagesOf(document.id, format, bytes);
      if (await this.finish(document, { status: 'ready', passages, validators })) {
        await this.onReady({ ...document, status: 'ready', chunks: passages.length, version: document.version + 1, raw: null });
      }
    } catch (err) {
      if (err instanceof DocumentRejected) {
        await this.finish(document, { status: 'failed', error: err.message });
        return;
      }
      // Unexpected (database, a library bug): the lease runs out and another attempt follows, up to MAX_ATTEMPTS.
      this.logger.error(`document ${document.id}: ${(err as Error).stack ?? String(err)}`);
    }
  }

  private async content(document: DocumentEntity): Promise<{ format: DocumentFileType; bytes: Buffer; validators?: PageValidators }> {
    if (document.source === 'url') {
      const page = await fetchDocument(document.url as string, this.config.isProduction);
      return { ...page, validators: { etag: page.etag, lastModified: page.lastModified } };
    }
    if (!document.raw || !document.contentType) throw new DocumentRejected('the upload is missing');
    return { format: document.contentType as DocumentFileType, bytes: document.raw };
  }

  /** Writes the outcome if the document is still live and still claimed by this attempt; true when written. */
  private finish(document: DocumentEntity, outcome: ProcessingOutcome): Promise<boolean> {
    return this.documents.finish(document, outcome);
  }
}

/** A document's content as its passages, each with its id (`${document_id}#${index}`). */
export async function passagesOf(documentId: string, format: DocumentFileType, bytes: Buffer): Promise<DocumentPassageData[]> {
  return (await extractPassages(format, bytes)).map((p, i) => ({ id: `${documentId}#${i}`, headings: p.headings, text: p.text }));
}
