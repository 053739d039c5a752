import { Inject, Injectable } from '@nestjs/common';
import { newId, type KnowledgeGapRecord } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import type { Meaning } from '../knowledge/knowledge-match';
import type { Language } from '../knowledge/language';
import type { StoredEvent } from '../replies/processed-message.entity';
import { MEANING } from '../semantics/semantics.module';
import { closestGap, mergedCentroid, wordingKey, type GapQuestion } from './gap-grouping';
import { gapOpenedEvent } from './gap-events';
import { GapsStore, messageKey, type GapAsked, type GapCandidateRow, type GapChanges, type TenantMessage } from './gaps.store';

/** What placing needs of the store: GapsStore's SQL, or an in-memory fake in the unit spec. */
export type GapPlacementStore = Pick<GapsStore, 'lockAgent' | 'counted' | 'candidates' | 'apply'>;

/** Where one question was counted, and the `agent.gap_opened` to publish when it opened its gap. */
export interface Placed {
  gapId: string;
  opened: StoredEvent | null;
}

/** An open gap as a batch leaves it: grouping's view, and what the batch added to it. */
interface GapState extends GapCandidateRow {
  tenantId: string;
  /** Opened by this batch: inserted whole, with `count` its questions. */
  isNew: boolean;
  agent: string;
  language: string;
  added: number;
  createdAt: Date;
  lastSeenAt: Date;
}

/**
 * Counts questions in knowledge gaps (CONTRACT.md §19), a batch at a time in the caller's transaction: each in the
 * closest open gap of its agent and language, or in a new one. The agents' locks are taken in one order (two workers'
 * batches wait, never deadlock), so instances placing near-duplicates at once open one gap; the open gaps of each
 * agent and language are read once per batch, and what the batch changed is written in one statement. A message
 * already counted (a redelivery, a second verdict) counts no more.
 */
@Injectable()
export class GapPlacer {
  constructor(
    @Inject(GapsStore) private readonly store: GapPlacementStore,
    @Inject(MEANING) private readonly meaning: Meaning,
  ) {}

  /**
   * Places `asked`, in order; answers, per question, where it was counted (null: empty, or counted already) and the
   * `agent.gap_opened` events to queue with the transaction. `done`: pending rows the caller claimed, deleted by the
   * same write.
   */
  async place(tx: EntityManager, asked: GapAsked[], done: TenantMessage[] = []): Promise<{ placed: (Placed | null)[]; opened: StoredEvent[] }> {
    const placed: (Placed | null)[] = asked.map(() => null);
    const todo = asked.map((a, i) => ({ a, i })).filter(({ a }) => a.text !== '');
    if (todo.length === 0) {
      if (done.length > 0) await this.store.apply(tx, { opened: [], grown: [], occurrences: [], wordings: [] }, done);
      return { placed, opened: [] };
    }
    // read before any lock: the model is the slow part
    const vectors = await this.vectorsOf(todo.map(({ a }) => a));
    for (const [tenantId, agent] of lockOrder(todo.map(({ a }) => a))) await this.store.lockAgent(tx, tenantId, agent);
    const counted = await this.store.counted(
      tx,
      todo.map(({ a }) => ({ tenantId: a.tenantId, messageId: a.occurrence.messageId })),
    );

    const candidates = new Map<string, GapState[]>();
    const changes: GapChanges = { opened: [], grown: [], occurrences: [], wordings: [] };
    const touched = new Map<string, GapState>();
    const wordings = new Map<string, GapChanges['wordings'][number]>();
    const opened: StoredEvent[] = [];
    for (const [n, { a, i }] of todo.entries()) {
      const key = messageKey(a.tenantId, a.occurrence.messageId);
      if (counted.has(key)) continue;
      counted.add(key);
      const question: GapQuestion = { text: a.text, language: a.language as Language, vector: vectors[n] };
      const open = await this.openGaps(tx, candidates, a);
      const found = closestGap(question, open) as GapState | null;
      const wording = wordingKey(a.text);
      const at = a.occurrence.at;
      let gap: GapState;
      if (found) {
        gap = found;
        gap.centroid = mergedCentroid(gap.centroid, gap.count, question.vector);
        gap.count += 1;
        gap.added += 1;
        if (at > gap.lastSeenAt) gap.lastSeenAt = at;
        if (!gap.wordings.includes(wording)) gap.wordings.push(wording);
      } else {
        gap = { tenantId: a.tenantId, id: newId('gap'), isNew: true, agent: a.agent, language: a.language, centroid: question.vector, count: 1, added: 1, wordings: [wording], createdAt: at, lastSeenAt: at };
        // the most recently asked first, as the store reads them
        open.unshift(gap);
        opened.push(gapOpenedEvent(a.tenantId, newGapRecord(gap, a.text), a.occurrence));
      }
      touched.set(gap.id, gap);
      changes.occurrences.push({ ...a.occurrence, tenantId: a.tenantId, gapId: gap.id, wording });
      const w = wordings.get(JSON.stringify([gap.id, wording]));
      if (w) w.added += 1;
      else wordings.set(JSON.stringify([gap.id, wording]), { tenantId: a.tenantId, gapId: gap.id, wording, text: a.text, added: 1, firstSeenAt: at });
      placed[i] = { gapId: gap.id, opened: found ? null : opened[opened.length - 1] };
    }
    for (const gap of touched.values()) {
      if (gap.isNew) changes.opened.push({ tenantId: gap.tenantId, id: gap.id, agent: gap.agent, language: gap.language, count: gap.count, createdAt: gap.createdAt, lastSeenAt: gap.lastSeenAt, centroid: gap.centroid });
      else changes.grown.push({ tenantId: gap.tenantId, id: gap.id, added: gap.added, lastSeenAt: gap.lastSeenAt, centroid: gap.centroid });
    }
    changes.wordings = [...wordings.values()];
    await this.store.apply(tx, changes, done);
    return { placed, opened };
  }

  /** The open gaps a question of `a`'s agent and language is compared with, read once per batch. */
  private async openGaps(tx: EntityManager, cache: Map<string, GapState[]>, a: GapAsked): Promise<GapState[]> {
    const key = JSON.stringify([a.tenantId, a.agent, a.language]);
    let open = cache.get(key);
    if (!open) {
      const rows = await this.store.candidates(tx, a.tenantId, a.agent, a.language);
      // the last time a grown gap was asked is only needed for the write, which keeps the later one (GREATEST)
      open = rows.map((r) => ({ ...r, wordings: [...r.wordings], tenantId: a.tenantId, isNew: false, agent: a.agent, language: a.language, added: 0, createdAt: new Date(0), lastSeenAt: new Date(0) }));
      cache.set(key, open);
    }
    return open;
  }

  /** Each question's vector where the model reads its language, else null. */
  private async vectorsOf(asked: GapAsked[]): Promise<(Float32Array | null)[]> {
    const read = asked.map((a) => this.meaning.languages.includes(a.language as Language));
    const vectors = await (read.some(Boolean) ? this.meaning.embedder.embed(asked.filter((_, i) => read[i]).map((a) => a.text)) : Promise.resolve([]));
    let next = 0;
    return read.map((r) => (r ? vectors[next++] : null));
  }
}

/** The agents of a batch, each once, in the one order every placer locks them in. */
function lockOrder(asked: GapAsked[]): [string, string][] {
  const keys = [...new Set(asked.map((a) => JSON.stringify([a.tenantId, a.agent])))].sort();
  return keys.map((k) => JSON.parse(k) as [string, string]);
}

/** A gap as its first question leaves it: what `agent.gap_opened` says, with no read after the write. */
function newGapRecord(gap: GapState, text: string): KnowledgeGapRecord {
  return {
    id: gap.id,
    agent: gap.agent,
    question: text,
    examples: [text],
    count: 1,
    language: gap.language,
    last_seen_at: gap.createdAt.toISOString(),
    state: 'open',
    answer: null,
    created_at: gap.createdAt.toISOString(),
  };
}
