import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  ProblemTypes,
  Topics,
  derivedId,
  newId,
  notFoundProblem,
  problem,
  type AgentGapOpenedData,
  type InboxActor,
  type KnowledgeGapRecord,
  type KnowledgeGapState,
  type MessageFeedbackRecord,
  type Page,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ListCursors, ProblemException } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { AgentsService } from '../agents/agents.service';
import { ConversationsStore } from '../conversations/conversations.store';
import type { Meaning } from '../knowledge/knowledge-match';
import { detectLanguage, type Language } from '../knowledge/language';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import type { StoredEvent } from '../replies/processed-message.entity';
import { MEANING } from '../semantics/semantics.module';
import { FeedbackStore } from './feedback.store';
import { closestGap, mergedCentroid, wordingKey, type GapQuestion } from './gap-grouping';
import { GapsStore, type GapOccurrence } from './gaps.store';

const MAX_PAGE = 100;
/** A gap's question is at most an FAQ question's length. */
const QUESTION_CHARS = 1000;

/**
 * Knowledge gaps (CONTRACT.md §19): what the agent could not answer, near-duplicates grouped by meaning, counted, for
 * the owner to answer once. A question is placed under the agent's lock, so instances placing near-duplicates at once
 * open one gap, and `agent.gap_opened` goes out once per gap, with the change that opened it.
 */
@Injectable()
export class GapsService {
  constructor(
    private readonly gaps: GapsStore,
    private readonly feedbacks: FeedbackStore,
    private readonly conversations: ConversationsStore,
    private readonly agents: AgentsService,
    private readonly cursors: ListCursors,
    private readonly relay: OutboxRelay,
    @Inject(MEANING) private readonly meaning: Meaning,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  /** A customer's question read for grouping: its vector where the model reads its language (compute it outside locks). */
  async question(text: string, language: Language): Promise<GapQuestion> {
    const clipped = text.trim().slice(0, QUESTION_CHARS);
    const [vector] = this.meaning.languages.includes(language) ? await this.meaning.embedder.embed([clipped]) : [null];
    return { text: clipped, language, vector };
  }

  /**
   * Counts a question in its gap, in the caller's transaction: the closest open gap of the agent, or a new one. Returns
   * the `agent.gap_opened` event to publish with the transaction when it opened one; nothing when this message counts
   * already.
   */
  async record(tx: EntityManager, tenantId: string, agent: string, question: GapQuestion, occurrence: GapOccurrence): Promise<{ gapId: string; opened: StoredEvent | null } | null> {
    if (!question.text) return null;
    await this.gaps.lockAgent(tx, tenantId, agent);
    if (await this.gaps.counted(tx, tenantId, occurrence.messageId)) return null;
    const candidates = await this.gaps.candidates(tx, tenantId, agent, question.language);
    const found = closestGap(question, candidates);
    const gapId = found?.id ?? newId('gap');
    if (!found) await this.gaps.insertGap(tx, tenantId, { id: gapId, agent, language: question.language, at: occurrence.at });
    const count = found ? (candidates.find((c) => c.id === found.id)?.count ?? 0) : 0;
    const centroid = mergedCentroid(found?.centroid ?? null, count, question.vector);
    await this.gaps.addQuestion(tx, tenantId, gapId, { wording: wordingKey(question.text), text: question.text, centroid }, occurrence);
    if (found) return { gapId, opened: null };
    const gap = await this.gaps.find(tenantId, agent, gapId, tx);
    return { gapId, opened: gap ? gapOpenedEvent(tenantId, gap, occurrence) : null };
  }

  /** An agent's gaps; 404 when the tenant has no such agent (a deleted agent's gaps are not listed). */
  async list(tenantId: string, agent: string, state: KnowledgeGapState, limit: number, cursor: string | null): Promise<Page<KnowledgeGapRecord>> {
    if (!(await this.agents.liveAgent(tenantId, agent))) throw new ProblemException(notFoundProblem(`Agent "${agent}"`));
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, `gaps/${agent}/${state}`);
    const after = cursors.after(cursor);
    const position = after === null ? null : (JSON.parse(after) as [string, string]);
    const rows = await this.gaps.page(tenantId, agent, state, take + 1, position && { lastSeenAt: position[0], id: position[1] });
    return { data: rows.slice(0, take), next_cursor: cursors.next(rows, take, (row) => JSON.stringify([row.last_seen_at, row.id])) };
  }

  async get(tenantId: string, agent: string, id: string): Promise<KnowledgeGapRecord> {
    const gap = await this.gaps.find(tenantId, agent, id);
    if (!gap) throw new ProblemException(notFoundProblem(`Knowledge gap "${id}" of agent "${agent}"`));
    return gap;
  }

  /** Closes an open gap with its answer (now the agent's FAQ); the same answer again finds it closed and says so. */
  async close(tenantId: string, agent: string, id: string, answer: string): Promise<KnowledgeGapRecord> {
    return this.settle(tenantId, agent, id, 'closed', answer);
  }

  async dismiss(tenantId: string, agent: string, id: string): Promise<KnowledgeGapRecord> {
    return this.settle(tenantId, agent, id, 'dismissed', null);
  }

  /**
   * A person's verdict on an agent reply. `wrong` counts the question it answered in a gap (`marked_wrong`, with the
   * reply given), once per reply; a later verdict replaces the earlier one but never uncounts the question.
   */
  async feedback(tenantId: string, conversationId: string, messageId: string, verdict: 'right' | 'wrong', note: string | null, actor: InboxActor): Promise<MessageFeedbackRecord> {
    const reply = await this.conversations.agentReplyWithQuestion(tenantId, conversationId, messageId);
    if (!reply || !reply.agent) throw new ProblemException(notFoundProblem(`Agent reply "${messageId}" in conversation "${conversationId}"`));
    const question = verdict === 'wrong' ? await this.question(reply.question, detectLanguage(reply.question)) : null;
    const agent = reply.agent;
    const { record, opened } = await this.db.transaction(async (tx) => {
      const placed = question
        ? await this.record(tx, tenantId, agent, question, { messageId, conversationId, customer: reply.customer, reason: 'marked_wrong', reply: reply.text, at: new Date() })
        : null;
      if (placed?.opened) await enqueueEvents(tx, [placed.opened]);
      const saved = await this.feedbacks.upsert(tx, tenantId, { conversationId, messageId, verdict, note, actor, gapId: placed?.gapId ?? null });
      return { record: saved, opened: placed?.opened ?? null };
    });
    if (opened) this.relay.wake();
    return record;
  }

  private async settle(tenantId: string, agent: string, id: string, state: 'closed' | 'dismissed', answer: string | null): Promise<KnowledgeGapRecord> {
    const settled = await this.gaps.settle(tenantId, agent, id, state, answer);
    const gap = await this.get(tenantId, agent, id);
    if (settled || (gap.state === state && gap.answer === answer)) return gap;
    throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `Knowledge gap "${id}" is ${gap.state} already.`));
  }
}

/** `agent.gap_opened`; its id derives from the gap, so republishing cannot send it twice. */
export function gapOpenedEvent(tenantId: string, gap: KnowledgeGapRecord, occurrence: GapOccurrence): StoredEvent {
  const data: AgentGapOpenedData = {
    event: 'agent.gap_opened',
    tenant_id: tenantId,
    agent: gap.agent,
    gap,
    reason: occurrence.reason,
    conversation_id: occurrence.conversationId,
    customer: occurrence.customer,
    at: occurrence.at.toISOString(),
  };
  return {
    topic: Topics.AgentGapOpened,
    key: `${tenantId}:${gap.agent}`,
    value: EventPublisher.envelope(Topics.AgentGapOpened, tenantId, data, derivedId('evt', 'gap', gap.id)),
  };
}
