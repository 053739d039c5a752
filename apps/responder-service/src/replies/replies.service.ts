import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Headers, notFoundProblem, type AgentRecord, type MessageAuthor, type AgentTestResult, type KnowledgeGapReason, type MessageInboundData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { DB_POOL_SIZE, ProblemException } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { AgentsService } from '../agents/agents.service';
import { AppointmentsStore } from '../appointments/appointments.store';
import { LeadsStore } from '../leads/leads.store';
import type { ConversationEntity, TurnContent } from '../conversations/conversation.entity';
import { ConversationsService, type ConversationParty, type Turn } from '../conversations/conversations.service';
import { conversationUpdatedEvent, handoffEvent, InboxLinks, ratedEvent } from '../conversations/inbox-events';
import { ratingIn, ratingThanks } from '../conversations/csat';
import { RoutingQueued } from '../conversations/routing-queued';
import { detectLanguage, isLanguage } from '../knowledge/language';
import { AgentDocumentsService } from '../documents/agent-documents.service';
import { knowledgeUsed, outcomeOf } from '../analytics/reply-outcome';
import { ReplyOutcomesStore } from '../analytics/reply-outcomes.store';
import { GapsService } from '../gaps/gaps.service';
import { ConcurrencyLimit } from './concurrency-limit';
import { BurstStore, outcomeRow, type BurstState, type ConversationChange, type WritePart } from './burst.store';
import type { ProcessedMessageEntity } from './processed-message.entity';
import { PublishedMarks } from './published-marks';
import { ReplyEngine, type Reply } from './reply-engine';
import { engagementEvents, optChangeEvent, outboundEvent, receivedEvent, replyMessageId, type AppointmentChange, type ReplyOutcome, type SentReply } from './reply-events';
import { OPT_CONFIRMATIONS, confirmationLanguage, optRequestOf, type OptRequest } from './opt-out';

/** A message written longer ago than this is not answered (the customer-service window, CONTRACT.md §5). */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;
const PUBLISH_TIMEOUT_MS = 10_000;
/**
 * Drafts of one burst's reply before giving up (the transport then retries): a draft is discarded when its conversation
 * moved on meanwhile, or when the slot it books was taken; the engine, asked again, then sees the change.
 */
const MAX_DRAFTS = 5;
/**
 * Replies drafted under their conversation's lock at once: half the pool. Each holds a database connection from its read
 * to its commit, while the drafting itself is the event loop's and the embedding model's one thread: more
 * at once only waits longer for both. The consumer hands over up to 256 conversations at once; when they all took a
 * connection, those left waiting past the pool's 5 s time-out failed and were retried, and a backlog of new customers
 * at 30/s held 18/s with p99 above 16 s (issue 33).
 */
const DRAFTS_AT_ONCE = Math.floor(DB_POOL_SIZE / 2);
/** The customer a preview speaks as when the caller names none. */
const PREVIEW_CUSTOMER = '+15550000000';

export type SilenceReason = 'no_agent' | 'handed_off' | 'stale';

/** One delivered `message.inbound`. */
export interface InboundDelivery {
  tenantId: string;
  inbound: MessageInboundData;
  requestId: string;
}

/** A reply computed outside any transaction, from a snapshot of its conversation and agent. */
interface Draft {
  agent: AgentRecord | null;
  /** The snapshot the draft was made from; the commit checks nothing changed since. */
  fingerprint: string;
  /** The messages the reply answers (the burst minus any too old to answer). */
  answered: MessageInboundData[];
  silence: SilenceReason | null;
  reply: Reply | null;
  /** A STOP or START in the burst (the last one): answered with its confirmation only, whoever else would answer. */
  opt?: { request: OptRequest; inbound: MessageInboundData };
  /** The question the reply could not answer (it said so, or gave the conversation up): a knowledge gap. */
  gap?: { text: string; language: string; reason: KnowledgeGapReason };
  /** The burst answers the rating question of the customer's closed conversation: its score, kept there. */
  rating?: number;
}

/** The snapshot a draft is valid for was changed before it could commit: draft again. */
class StaleDraft extends Error {
  constructor(why: string) {
    super(`the draft is stale: ${why}`);
  }
}

/**
 * Answers inbound customer messages, exactly once each, and a burst of them with one reply (CONTRACT.md §10).
 *
 * The transport hands over together the messages of one customer that arrived while the previous reply was being
 * computed (Kafka batch by key); they are answered as one. The reply is drafted outside any transaction (an LLM may
 * take seconds), then committed under the conversation's lock in one transaction keyed by the messages' ids, together
 * with the conversation's turns, its effects (a lead, a booking under the slot's unique index) and the events to
 * publish; publishing follows the commit. What other modules keep of a reply rides in the same write statement: its
 * outcome for the agent's analytics, and a question it could not answer, queued for the gaps worker to group after the
 * commit (so the transaction neither takes the agent's gap lock nor reads its open gaps). A draft whose conversation or
 * agent changed meanwhile, or whose slot was taken, is drafted again. A redelivery finds the stored outcome and only publishes what is not yet acknowledged, so a
 * crash anywhere yields neither a second reply nor a lost one.
 */
@Injectable()
export class RepliesService {
  private readonly logger = new Logger(RepliesService.name);
  private readonly draftsUnderLock = new ConcurrencyLimit(DRAFTS_AT_ONCE);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly agents: AgentsService,
    private readonly conversations: ConversationsService,
    private readonly engine: ReplyEngine,
    private readonly publisher: EventPublisher,
    private readonly leads: LeadsStore,
    private readonly appointments: AppointmentsStore,
    private readonly marks: PublishedMarks,
    private readonly documents: AgentDocumentsService,
    private readonly links: InboxLinks,
    private readonly gaps: GapsService,
    private readonly outcomes: ReplyOutcomesStore,
    private readonly routing: RoutingQueued,
  ) {}

  /** Handles delivered messages, in order; those of one conversation together. */
  async handleInbound(deliveries: InboundDelivery[]): Promise<void> {
    for (const burst of bursts(deliveries)) await this.handleBurst(burst);
  }

  /** What the agent would answer to one message (`POST /agents/{name}/test`): nothing is sent, stored or emitted. */
  async preview(tenantId: string, agentName: string, text: string, from: string | null): Promise<AgentTestResult> {
    const agent = await this.agents.liveAgent(tenantId, agentName);
    if (!agent) throw new ProblemException(notFoundProblem(`Agent "${agentName}"`));
    const reply = await this.firstReplyOf(tenantId, agent, text, from);
    return {
      reply: reply.text,
      skill: reply.skill,
      handoff: reply.handoff,
      language: reply.state.language ?? detectLanguage(text),
      sources: (reply.sources ?? []).map((s) => ({ ...s, score: s.score ?? reply.confidence ?? 1 })),
      confidence: reply.sources?.length ? (reply.confidence ?? null) : null,
    };
  }

  /**
   * What `agent` (live, or a version about to be saved or already replaced: test sets run against those) answers as
   * the first reply of a new conversation. Nothing is sent, stored or emitted.
   */
  async firstReplyOf(tenantId: string, agent: AgentRecord, text: string, from: string | null): Promise<Reply> {
    return this.engine.reply({
      tenantId,
      agent,
      conversationHistory: [],
      firstReply: true,
      message: { text, type: 'text', contactName: null },
      customer: from ?? PREVIEW_CUSTOMER,
      state: {},
      now: new Date(),
      calendar: this.appointments.calendar(this.db.manager, tenantId, agent.name),
      documents: await this.documents.forAgent(tenantId, agent.id),
    });
  }

  /** One conversation's messages of a delivery. */
  private async handleBurst(burst: InboundDelivery[]): Promise<void> {
    const tenantId = burst[0].tenantId;
    for (let drafts = 1; ; drafts++) {
      try {
        // Asked before the read: a mark this instance holds may be written (and forgotten here) while the read runs,
        // and a read that began before that write would then see the outcome unpublished and publish it again.
        const markedBeforeRead = new Set(burst.map((d) => d.inbound.message_id).filter((id) => this.marks.isMarked(tenantId, id)));
        const outcomes = (await this.engine.answersAtOnceFor(tenantId))
          ? await this.draftsUnderLock.run(() => this.draftUnderLock(tenantId, burst))
          : await this.draftThenCommit(tenantId, burst);
        await this.publish(outcomes.filter((o) => !o.publishedAt && !markedBeforeRead.has(o.inboundMessageId)), burst);
        return;
      } catch (err) {
        if (!(err instanceof StaleDraft) || drafts >= MAX_DRAFTS) throw err;
        this.logger.log(`${err.message}; drafting the reply to ${burst.map((d) => d.inbound.message_id).join(', ')} again`);
      }
    }
  }

  /** The burst's outcomes: drafted outside any transaction (an LLM may take seconds), then committed if still valid. */
  private async draftThenCommit(tenantId: string, burst: InboundDelivery[]): Promise<ProcessedMessageEntity[]> {
    const { stored, fresh, state } = await this.readBurst(this.db.manager, tenantId, burst);
    if (fresh.length === 0) return stored;
    return [...stored, ...(await this.commit(tenantId, fresh, await this.draft(this.db.manager, tenantId, fresh, state)))];
  }

  /**
   * The burst's outcomes, for an engine that answers at once: drafted and committed under the conversation's lock from
   * one read, so the snapshot cannot go stale and needs no second read (a round trip less per message).
   */
  private async draftUnderLock(tenantId: string, burst: InboundDelivery[]): Promise<ProcessedMessageEntity[]> {
    const last = burst[burst.length - 1].inbound;
    let gap = false;
    let handedOff = false;
    const outcomes = await this.db.transaction(async (tx) => {
      await this.conversations.lock(tx, tenantId, last.to, last.from);
      const { stored, fresh, state } = await this.readBurst(tx, tenantId, burst);
      if (fresh.length === 0) return stored;
      const draft = await this.draft(tx, tenantId, fresh, state);
      gap = !!draft.gap;
      handedOff = draft.reply?.handoff ?? false;
      return [...stored, ...(await this.write(tx, tenantId, fresh, draft, state))];
    });
    if (gap) this.gaps.queued();
    if (handedOff) this.routing.notify();
    return outcomes;
  }

  /** The burst's stored outcomes, the messages still to answer, and the state to draft their reply from. */
  private async readBurst(manager: EntityManager, tenantId: string, burst: InboundDelivery[]): Promise<{ stored: ProcessedMessageEntity[]; fresh: MessageInboundData[]; state: BurstState }> {
    let state = await this.read(manager, tenantId, burst.map((d) => d.inbound), true);
    const stored = state.processed;
    const fresh = burst.filter((d) => !stored.some((o) => o.inboundMessageId === d.inbound.message_id)).map((d) => d.inbound);
    // Rare (a redelivery of part of a burst): the draft reads as of the messages still to answer.
    if (stored.length > 0 && fresh.length > 0) state = await this.read(manager, tenantId, fresh, true);
    return { stored, fresh, state };
  }

  /** What a burst's draft or commit depends on, read in one statement (see BurstStore). */
  private read(manager: EntityManager, tenantId: string, burst: MessageInboundData[], withHistory: boolean): Promise<BurstState> {
    const last = burst[burst.length - 1];
    return BurstStore.read(
      manager,
      tenantId,
      burst.map((i) => i.message_id),
      partyOf(last),
      last.channel_agent,
      new Date(burst[0].received_at),
      withHistory,
    );
  }

  /** The reply to a burst, computed from the conversation as it is now (`state`); `manager` reads the calendar. */
  private async draft(manager: EntityManager, tenantId: string, fresh: MessageInboundData[], state: BurstState): Promise<Draft> {
    const { agent, conversation, history } = state;
    const last = fresh[fresh.length - 1];
    const answered = fresh.filter((i) => !isStale(i));
    const silence = silenceReason(agent, conversation, answered);
    const fingerprint = snapshotOf(agent, conversation);
    const opt = lastOptRequest(fresh);
    if (opt) {
      // Recorded and announced whatever the conversation's state; the agent confirms it (even when handed off or late)
      // and says nothing else. With no agent nothing is replied (CONTRACT.md §6): the tenant's webhook has the event.
      const reply = agent ? optConfirmation(opt.request, conversation) : null;
      return { agent, fingerprint, answered: fresh, silence: agent ? null : 'no_agent', reply, opt };
    }
    // The answer to the rating question of a conversation just closed: kept in that one, thanked, no new conversation.
    const rating = !conversation && state.ratable ? ratingIn(last) : null;
    if (rating !== null && state.ratable) {
      const skillState = state.ratable.skillState;
      const reply: Reply | null = agent ? { text: ratingThanks(isLanguage(skillState.language) ? skillState.language : 'en'), skill: null, handoff: false, state: skillState, effects: {} } : null;
      return { agent, fingerprint, answered: fresh, silence: agent ? null : 'no_agent', reply, rating };
    }
    if (!agent || silence !== null) return { agent, fingerprint, answered, silence, reply: null };

    const lastAnswered = answered[answered.length - 1];
    const reply = await this.engine.reply({
      tenantId,
      agent,
      // A person's replies from the inbox are the business speaking, like the agent's.
      conversationHistory: history.map((t) => ({ role: t.role === 'customer' ? 'customer' : 'agent', text: t.text, at: t.at.toISOString() })),
      // A call was greeted when it was picked up (the channel's greeting, else the agent's): its first reply is not.
      firstReply: (conversation?.replyCount ?? 0) === 0 && last.channel !== 'voice',
      // A burst is answered as one message: "hi" + "do you deliver?" + "to Leeds" read together.
      message: { text: answered.map((i) => i.text).join('\n'), type: lastAnswered.type, contactName: lastAnswered.contact_name },
      customer: last.from,
      channel: last.channel,
      state: conversation?.skillState ?? {},
      now: new Date(lastAnswered.received_at),
      calendar: this.appointments.calendar(manager, tenantId, agent.name),
      documents: await this.documents.forAgent(tenantId, agent.id, manager),
    });
    return { agent, fingerprint, answered, silence, reply, gap: this.gapOf(reply, answered) };
  }

  /** A reply that did not answer makes its question a knowledge gap (grouped after the commit, see GapsService.pending). */
  private gapOf(reply: Reply, answered: MessageInboundData[]): Draft['gap'] {
    const reason: KnowledgeGapReason | null = reply.notKnown ? 'not_known' : reply.handoffReason === 'skill_gave_up' ? 'handoff' : null;
    if (!reason) return undefined;
    const text = answered.map((i) => i.text).join('\n');
    return { text: this.gaps.question(text), language: reply.state.language ?? detectLanguage(text), reason };
  }

  /** Commits a draft, if its snapshot still holds. */
  private async commit(tenantId: string, fresh: MessageInboundData[], draft: Draft): Promise<ProcessedMessageEntity[]> {
    const last = fresh[fresh.length - 1];
    const outcomes = await this.db.transaction(async (tx) => {
      await this.conversations.lock(tx, tenantId, last.to, last.from);
      const current = await this.read(tx, tenantId, fresh, false);
      // Another instance (mid-rebalance) may have handled some of them meanwhile.
      if (current.processed.length > 0) throw new StaleDraft('some of its messages were handled meanwhile');
      if (snapshotOf(current.agent, current.conversation) !== draft.fingerprint) throw new StaleDraft('the conversation or its agent changed');
      return this.write(tx, tenantId, fresh, draft, current);
    });
    if (draft.gap) this.gaps.queued();
    if (draft.reply?.handoff) this.routing.notify();
    return outcomes;
  }

  /**
   * Writes a draft made from `state`, under the conversation's lock: turns, effects, and one outbox row per message,
   * with the reply's outcome (analytics) and its unanswered question (gaps) in the same statement (BurstStore.write).
   */
  private async write(tx: EntityManager, tenantId: string, fresh: MessageInboundData[], draft: Draft, state: BurstState): Promise<ProcessedMessageEntity[]> {
    const first = fresh[0];
    const last = fresh[fresh.length - 1];
    const { agent, conversation: current } = state;
    if (draft.rating && !state.ratable) throw new StaleDraft('the closed conversation was rated meanwhile');
    const rated = draft.rating ? state.ratable : null;
    const conversation = rated ?? current ?? this.conversations.started(tenantId, partyOf(last), new Date(first.received_at), state.playground ? 'playground' : 'customer');

    const { reply, answered } = draft;
    const lastAnswered = answered[answered.length - 1];
    const sent: SentReply | null =
      agent && reply
        ? { agentName: agent.name, messageId: replyMessageId(lastAnswered.message_id), text: reply.text, acceptedAt: new Date(), inReplyTo: answered.map((i) => i.message_id) }
        : null;

    // The booking first: a slot taken meanwhile voids the draft before anything else is written.
    const wanted = reply?.effects.appointment;
    const held =
      agent && wanted ? await this.appointments.book(tx, tenantId, { agentName: agent.name, conversationId: conversation.id, customer: last.from, ...wanted }) : null;
    if (wanted && !held) throw new StaleDraft(`the slot ${wanted.startsAt} was taken`);
    const cancel = reply?.effects.cancel;
    const cancelled = agent && cancel ? await this.appointments.cancel(tx, tenantId, conversation.id, cancel.startsAt) : null;
    const appointment: AppointmentChange | null = held ?? (cancelled ? { change: 'cancelled', appointment: cancelled } : null);
    const lead =
      agent && reply?.effects.lead
        ? await this.leads.save(tx, tenantId, { conversationId: conversation.id, agentName: agent.name, customer: last.from, ...reply.effects.lead })
        : null;

    const turns: Turn[] = fresh.map((i) => ({ messageId: i.message_id, role: 'customer', author: null, text: i.text, at: new Date(i.received_at), content: contentOf(i) }));
    const agentAuthor = sent ? agentAuthorOf(sent) : null;
    if (sent && agentAuthor) turns.push({ messageId: sent.messageId, role: 'agent', author: agentAuthor, text: sent.text, at: sent.acceptedAt });
    const handedOff = reply?.handoff ?? false;
    const change: ConversationChange = {
      conversation,
      isNew: !rated && current === null,
      turns,
      handedOff,
      rating: draft.rating ?? null,
      handoffSkill: handedOff ? (reply?.handoffReason === 'customer_asked_for_human' ? 'human' : (reply?.skill ?? null)) : null,
      skillState: reply?.state,
      // The inbox counts what a person has to read: messages the agent left unanswered or handed to a person.
      unreadAdded: rated ? 0 : !sent || handedOff || conversation.state === 'handed_off' ? fresh.length : 0,
      lastMessage:
        sent && agentAuthor
          ? { text: sent.text, author: agentAuthor, at: sent.acceptedAt.toISOString() }
          : { text: last.text, author: { type: 'customer' }, at: last.received_at },
      leadName: lead?.lead.name ?? null,
      profileName: fresh.map((i) => i.contact_name).filter((n): n is string => !!n).pop() ?? null,
    };
    const after = BurstStore.next(change);

    const parts: WritePart[] = [];
    // What the reply did, for the agent's analytics.
    // (a thank-you for a rating answers no question)
    if (sent && reply && !rated) {
      parts.push(
        this.outcomes.written(tenantId, {
          messageId: sent.messageId,
          agent: sent.agentName,
          at: sent.acceptedAt,
          language: reply.state.language ?? detectLanguage(lastAnswered.text),
          outcome: outcomeOf(reply),
          booked: held?.change === 'booked',
          lead: lead?.change === 'captured',
          sources: knowledgeUsed(reply.sources),
        }),
      );
    }
    // The question it could not answer is queued for its gap (grouped after the commit; a new gap is announced then).
    const gap =
      sent && draft.gap
        ? this.gaps.pending({
            tenantId,
            agent: sent.agentName,
            text: draft.gap.text,
            language: draft.gap.language,
            occurrence: { messageId: lastAnswered.message_id, conversationId: conversation.id, customer: last.from, reason: draft.gap.reason, reply: sent.text, at: sent.acceptedAt },
          })
        : null;
    if (gap) parts.push(gap);

    const rows = fresh.map((inbound) => {
      const answers = sent !== null && sent.inReplyTo.includes(inbound.message_id);
      const events = [receivedEvent(tenantId, inbound, answers ? sent : null)];
      if (sent && inbound === lastAnswered) {
        events.unshift(outboundEvent(tenantId, inbound, sent));
        const outcome: ReplyOutcome = { conversationId: conversation.id, agentName: sent.agentName, lead, appointment };
        events.push(...engagementEvents(tenantId, inbound, outcome, sent.acceptedAt));
        if (handedOff) {
          const reason = reply?.handoffReason ?? 'skill_gave_up';
          events.push(handoffEvent(tenantId, after, this.links, { agent: sent.agentName, reason, at: sent.acceptedAt, causeId: inbound.message_id }));
        }
      }
      // The dashboards' inbox follows every message of the conversation.
      if (inbound === last) events.push(conversationUpdatedEvent(tenantId, after, 'message', sent?.acceptedAt ?? new Date(inbound.received_at), inbound.message_id));
      if (draft.opt?.inbound === inbound) events.push(optChangeEvent(tenantId, inbound, draft.opt.request));
      if (rated && draft.rating && inbound === last) events.push(ratedEvent(tenantId, after, this.links, { score: draft.rating, comment: null, at: new Date() }));
      return outcomeRow(tenantId, conversation.id, inbound.message_id, answers ? sent.messageId : null, events);
    });
    await BurstStore.write(tx, tenantId, change, rows, parts);

    const handled = sent ? `replied ${sent.messageId} (skill ${reply?.skill ?? 'none'}${reply?.handoff ? ', handed off' : ''})` : `no reply (${draft.silence})`;
    this.logger.log(`inbound ${fresh.map((i) => i.message_id).join(', ')} in ${conversation.id}: ${handled}`);
    return rows;
  }

  /** Publishes stored events with their stored ids (consumers deduplicate), then marks them acknowledged. */
  private async publish(outcomes: ProcessedMessageEntity[], burst: InboundDelivery[]): Promise<void> {
    if (outcomes.length === 0) return;
    const requestIdOf = (id: string) => burst.find((d) => d.inbound.message_id === id)?.requestId ?? burst[0].requestId;
    await this.publisher.publish(
      outcomes.flatMap((o) =>
        o.events.map((e) => ({
          topic: e.topic,
          key: e.key,
          value: e.value,
          headers: { [Headers.RequestId]: requestIdOf(o.inboundMessageId), [Headers.EventType]: e.value.type },
        })),
      ),
      { timeoutMs: PUBLISH_TIMEOUT_MS },
    );
    this.marks.mark(
      outcomes[0].tenantId,
      outcomes.map((o) => o.inboundMessageId),
    );
  }
}

/** Groups deliveries by conversation (tenant, business number, customer), in order, each message once. */
export function bursts(deliveries: InboundDelivery[]): InboundDelivery[][] {
  const groups = new Map<string, InboundDelivery[]>();
  for (const d of deliveries) {
    const key = JSON.stringify([d.tenantId, d.inbound.to, d.inbound.from]);
    const group = groups.get(key) ?? [];
    if (!group.some((g) => g.inbound.message_id === d.inbound.message_id)) group.push(d);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Why the agent stays silent on a burst, or null when it answers (CONTRACT.md §5, §6). */
export function silenceReason(agent: AgentRecord | null, conversation: ConversationEntity | null, answerable: MessageInboundData[]): SilenceReason | null {
  if (!agent) return 'no_agent';
  if (conversation?.state === 'handed_off') return 'handed_off';
  if (answerable.length === 0) return 'stale';
  return null;
}

/** The last message of a burst that opts the customer out of marketing or back in, if any. */
function lastOptRequest(fresh: MessageInboundData[]): Draft['opt'] {
  for (let i = fresh.length - 1; i >= 0; i--) {
    const request = fresh[i].type === 'text' ? optRequestOf(fresh[i].text) : null;
    if (request) return { request, inbound: fresh[i] };
  }
  return undefined;
}

/** The one-line confirmation of an opt-out or opt-in, in the conversation's language; the skills' memory is kept. */
function optConfirmation(request: OptRequest, conversation: ConversationEntity | null): Reply {
  const state = conversation?.skillState ?? {};
  return { text: OPT_CONFIRMATIONS[confirmationLanguage(request, state.language)][request.change], skill: null, handoff: false, state, effects: {} };
}

/** The thread's author of the business's automatic reply: the agent, by name. */
function agentAuthorOf(sent: SentReply): MessageAuthor {
  return { type: 'agent', name: sent.agentName ?? 'agent' };
}

/** Written more than 24 h before it arrived: not answered. */
function isStale(inbound: MessageInboundData): boolean {
  return Date.parse(inbound.received_at) - Date.parse(inbound.sent_at) > STALE_AFTER_MS;
}

function partyOf(inbound: MessageInboundData): ConversationParty {
  return { channelId: inbound.channel_id, channel: inbound.channel ?? 'whatsapp', businessNumber: inbound.to, customer: inbound.from };
}

/** What a draft depends on: the agent's version and the conversation's progress. */
function snapshotOf(agent: AgentRecord | null, conversation: ConversationEntity | null): string {
  return JSON.stringify([
    agent ? [agent.id, agent.version] : null,
    conversation ? [conversation.id, conversation.state, conversation.replyCount, conversation.lastMessageAt.getTime(), conversation.skillState] : null,
  ]);
}

/** A customer's downloaded file or tapped reply, kept with the turn so the inbox thread shows it (CONTRACT.md §13). */
function contentOf(inbound: MessageInboundData): TurnContent | null {
  if (inbound.media) return { type: inbound.type, media: inbound.media };
  if (inbound.interactive) return { type: 'interactive', interactive: inbound.interactive };
  return null;
}
