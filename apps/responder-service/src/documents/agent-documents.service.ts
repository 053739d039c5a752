import { Inject, Injectable, Logger } from '@nestjs/common';
import { newId, type DocumentChangedData, type DocumentChangedEvent, type DocumentPassageData } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import { TestRunsQueued } from '../agent-tests/agent-tests-store.module';
import { AgentTestsStore } from '../agent-tests/agent-tests.store';
import { AgentsService } from '../agents/agents.service';
import { MalformedEventError } from '../common/malformed-event.error';
import type { DocumentPassage } from '../knowledge/document-passage';
import type { Meaning } from '../knowledge/knowledge-match';
import { documentPassageTitle } from '../knowledge/rank-knowledge';
import { embedPassages, passageViews } from '../semantics/semantic-index';
import { MEANING } from '../semantics/semantics.module';
import { VectorSet } from '../semantics/vector-set';
import { AgentDocumentsStore } from './agent-documents.store';
import { RefreshingCache } from './refreshing-cache';

/**
 * How long an agent's passages are answered from memory. Replies read them for every message; past `freshMs` they are
 * read again in the background while they still answer, so a reply drafted under its conversation's lock does not
 * hold the lock (and its connection) through that read; past `usableMs` (no message for a while) a reply reads them
 * first. A change reaches every instance's replies within `usableMs` (the instance that applied it at once), inside
 * CONTRACT §11's 5 s.
 */
const PASSAGES_FRESH_MS = 1500;
const PASSAGES_USABLE_MS = 3000;
const CACHE_MAX_AGENTS = 5000;

/**
 * The responder's read model of agents' documents, fed by `document.changed`: the passages the reply engines rank
 * beside an agent's FAQs and instruction (CONTRACT.md §11).
 */
@Injectable()
export class AgentDocumentsService {
  private readonly logger = new Logger(AgentDocumentsService.name);
  private readonly cache = new RefreshingCache<DocumentPassage[]>({
    freshMs: PASSAGES_FRESH_MS,
    usableMs: PASSAGES_USABLE_MS,
    maxEntries: CACHE_MAX_AGENTS,
    onRefreshError: (key, err) => this.logger.warn(`could not read the documents of agent ${key.split('\u0000')[1]} again: ${String(err)}`),
  });

  constructor(
    private readonly documents: AgentDocumentsStore,
    @Inject(MEANING) private readonly meaning: Meaning,
    private readonly agents: AgentsService,
    private readonly tests: AgentTestsStore,
    private readonly testRunsQueued: TestRunsQueued,
  ) {}

  /**
   * A ready document's passages replace its previous ones, with their vectors (embedded here, once: never per
   * question); a deletion leaves a tombstone no later change undoes. Then the agent's test set runs again, as for a
   * new version (CONTRACT.md §19): queued after the change is applied, so the run reads it (a crash in between
   * re-applies it on redelivery, and the run is queued once per event).
   */
  async applyChange(event: DocumentChangedEvent): Promise<void> {
    const data = parseChange(event);
    const vectors = data.passages === null ? null : await this.embed(data.title, data.passages);
    await this.documents.apply(data.tenant_id, {
      documentId: data.document_id,
      agentId: data.agent_id,
      title: data.title,
      passages: data.passages,
      vectors,
      vectorsModel: vectors && this.meaning.model,
    });
    this.cache.invalidate(cacheKey(data.tenant_id, data.agent_id));
    const agent = await this.agents.liveAgent(data.tenant_id, data.agent_name);
    if (agent?.id === data.agent_id && (await this.tests.queueRun(data.tenant_id, newId('run'), agent, null, `document:${data.document_id}:${event.id}`))) {
      this.testRunsQueued.notify();
    }
  }

  /** Every view of every passage, in order, as one VectorSet (passageViews tells each passage's share). */
  private async embed(title: string, passages: readonly DocumentPassageData[]): Promise<Buffer> {
    const sets = await embedPassages(
      passages.map((p) => ({ type: 'document' as const, title: documentPassageTitle({ title, headings: p.headings }), text: p.text })),
      this.meaning.embedder,
    );
    return VectorSet.concat(sets, sets.find((s) => s.size > 0)?.dimensions ?? 0).toBuffer();
  }

  /**
   * The passages of the agent's live documents, document by document in the order they were added. `manager` is the
   * caller's transaction when it has one, so a reply drafted under a lock never waits for a second pool connection.
   */
  forAgent(tenantId: string, agentId: string, manager?: EntityManager): Promise<DocumentPassage[]> {
    // A refresh in the background reads on its own connection: the caller's transaction may be over by then.
    return this.cache.get(cacheKey(tenantId, agentId), () => this.read(tenantId, agentId, manager), () => this.read(tenantId, agentId));
  }

  private async read(tenantId: string, agentId: string, manager?: EntityManager): Promise<DocumentPassage[]> {
    const rows = await this.documents.live(tenantId, agentId, manager);
    return rows.flatMap((row) => {
      const passages = row.passages.map((p): DocumentPassage => ({ id: p.id, documentId: row.document_id, title: row.title, headings: p.headings, text: p.text }));
      // Vectors of another model (or none yet) are left out: the index embeds those passages when it is built.
      if (row.vectors && row.vectors_model === this.meaning.model) attachVectors(passages, VectorSet.fromBuffer(row.vectors));
      return passages;
    });
  }
}

const cacheKey = (tenantId: string, agentId: string) => `${tenantId}\u0000${agentId}`;

/** Gives each passage its views' vectors out of a document's set; a set that does not fit them all is not used. */
function attachVectors(passages: DocumentPassage[], set: VectorSet): void {
  const counts = passages.map((p) => passageViews({ type: 'document', title: documentPassageTitle(p), text: p.text }).length);
  if (counts.reduce((a, b) => a + b, 0) !== set.size) return;
  let next = 0;
  passages.forEach((p, i) => {
    p.vectors = set.slice(next, next + counts[i]);
    next += counts[i];
  });
}

/** Refuses a change the model cannot apply safely, so the transport dead-letters it instead of corrupting the model. */
function parseChange(event: DocumentChangedEvent): DocumentChangedData {
  const data: Partial<DocumentChangedData> = event?.data ?? {};
  const { tenant_id: tenantId, document_id: documentId, agent_id: agentId, agent_name: agentName, title, passages } = data;
  if ([tenantId, documentId, agentId, agentName, title].some((v) => typeof v !== 'string' || v === '') || passages === undefined) {
    throw new MalformedEventError('document.changed', 'data.tenant_id, document_id, agent_id, agent_name, title and passages are required');
  }
  const wellFormed = (p: Partial<DocumentPassageData>) => typeof p?.id === 'string' && typeof p.text === 'string' && Array.isArray(p.headings) && p.headings.every((h) => typeof h === 'string');
  if (passages !== null && (!Array.isArray(passages) || !passages.every(wellFormed))) {
    throw new MalformedEventError('document.changed', 'data.passages must be null or a list of {id, headings, text}');
  }
  return data as DocumentChangedData;
}
