import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ProblemTypes, notFoundProblem, problem, type InboxActor, type KnowledgeGapRecord, type KnowledgeGapState, type MessageFeedbackRecord, type Page } from '@parley/contracts';
import { ListCursors, ProblemException } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { AgentsService } from '../agents/agents.service';
import { ConversationsStore } from '../conversations/conversations.store';
import { detectLanguage } from '../knowledge/language';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import type { WritePart } from '../replies/burst.store';
import { FeedbackStore } from './feedback.store';
import { GapPlacer } from './gap-placer';
import { GapWorker } from './gap.worker';
import { GapsStore, type GapAsked } from './gaps.store';

const MAX_PAGE = 100;
/** A gap's question is at most an FAQ question's length. */
const QUESTION_CHARS = 1000;

/**
 * Knowledge gaps (CONTRACT.md §19): what the agent could not answer, near-duplicates grouped by meaning, counted, for
 * the owner to answer once. A question is placed under the agent's lock (GapPlacer), so instances placing
 * near-duplicates at once open one gap, and `agent.gap_opened` goes out once per gap, through the outbox, with the
 * change that opened it. A reply only queues its question (`pending`); the gaps worker places it after the commit. A
 * reply marked wrong is placed at once: the verdict answers with its gap.
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
    private readonly placer: GapPlacer,
    private readonly worker: GapWorker,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  /** A customer's question as a gap keeps it: trimmed, at most an FAQ question's length. */
  question(text: string): string {
    return text.trim().slice(0, QUESTION_CHARS);
  }

  /**
   * Counts a question a reply could not answer, in the reply's own statement (BurstStore.write): it is queued there
   * with the reply, keyed by the customer message, and grouped after the commit by the gaps worker (`queued()` wakes
   * it), so the reply's transaction neither takes the agent's lock nor reads its gaps. Null for an empty question.
   */
  pending(asked: GapAsked): WritePart | null {
    return asked.text ? this.gaps.pending(asked) : null;
  }

  /** Called after a transaction that queued questions committed. */
  queued(): void {
    this.worker.wake();
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
    const text = verdict === 'wrong' ? this.question(reply.question) : null;
    const agent = reply.agent;
    return this.relay.relayAfter(
      (work) => this.db.transaction(work),
      async (tx) => {
        const occurrence = { messageId, conversationId, customer: reply.customer, reason: 'marked_wrong' as const, reply: reply.text, at: new Date() };
        const placement = text ? await this.placer.place(tx, [{ tenantId, agent, text, language: detectLanguage(reply.question), occurrence }]) : null;
        const placed = placement?.placed[0] ?? null;
        if (placed?.opened) await enqueueEvents(tx, [placed.opened]);
        return this.feedbacks.upsert(tx, tenantId, { conversationId, messageId, verdict, note, actor, gapId: placed?.gapId ?? null });
      },
    );
  }

  private async settle(tenantId: string, agent: string, id: string, state: 'closed' | 'dismissed', answer: string | null): Promise<KnowledgeGapRecord> {
    const settled = await this.gaps.settle(tenantId, agent, id, state, answer);
    const gap = await this.get(tenantId, agent, id);
    if (settled || (gap.state === state && gap.answer === answer)) return gap;
    throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `Knowledge gap "${id}" is ${gap.state} already.`));
  }
}
