import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  ProblemTypes,
  newId,
  derivedId,
  mentionsIn,
  problem,
  validationProblem,
  type ConversationChange,
  type ConversationUpdateKind,
  type ConversationNoteRecord,
  type ConversationRecord,
  type ConversationView,
  type ConversationTurnRecord,
  type InboxActor,
  type MessageAuthor,
  type MessageOutboundData,
} from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import type { StoredEvent } from '../replies/processed-message.entity';
import type { SkillState } from '../replies/reply-engine';
import { ConversationEntity, ConversationMessageEntity, ConversationNoteEntity } from './conversation.entity';
import { ConversationsService, toNoteRecord } from './conversations.service';
import { ConversationsStore } from './conversations.store';
import { InboxLinks, SERVICE_WINDOW_MS, conversationUpdatedEvent, handoffEvent, toCustomerEvent, toSummary } from './inbox-events';
import { searchConfigOf } from './inbox-search';
import { RoutingQueued } from './routing-queued';
import { ratingQuestion } from './csat';
import { isLanguage } from '../knowledge/language';
import { sentTurn } from './sent-turn';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';

/** What one inbox action changed: the conversation's next columns and the events announcing it. */
interface Applied<T> {
  changes: Partial<ConversationEntity>;
  events: StoredEvent[];
  result: T;
}

/**
 * What people do in the inbox (CONTRACT.md §12): open a conversation (marks it read), take it over, give it back,
 * close it, assign it, reply as a person, add a note. Each runs under the conversation's lock, so it never interleaves
 * with the agent's reply to the same customer, and queues its events in the outbox in the same transaction: an action
 * is recorded and announced (a reply sent) both or neither, the events published by the relay after the commit.
 */
@Injectable()
export class InboxService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly conversations: ConversationsService,
    private readonly store: ConversationsStore,
    private readonly relay: OutboxRelay,
    private readonly links: InboxLinks,
    private readonly routingQueued: RoutingQueued,
  ) {}

  /** The conversation with its thread; a member (`reader`) opening it reads its unread messages. */
  async open(tenantId: string, id: string, reader: string | null): Promise<ConversationRecord> {
    const seen = await this.snapshot(tenantId, id);
    if (!reader || seen.conversation.unread === 0) return seen.record;
    // The thread is read under the conversation's lock, which every writer of a thread takes (or waits on, in the
    // statement that adds its turns), so it matches the summary as the snapshot's does.
    return this.act(tenantId, id, async (c, tx) => {
      const read = { ...c, unread: 0 };
      const record = { ...toSummary(read), ...(await this.conversations.thread(tx, tenantId, id)) };
      return { changes: { unread: 0 }, events: [conversationUpdatedEvent(tenantId, read, 'read', new Date())], result: record };
    });
  }

  /**
   * The conversation and its thread as of one moment. Read apart, a send committed in between showed in the thread
   * while the summary (its last message, state, unread) was still from before it.
   */
  private snapshot(tenantId: string, id: string): Promise<{ conversation: ConversationEntity; record: ConversationRecord }> {
    return this.db.transaction('REPEATABLE READ', async (tx) => {
      const conversation = await this.conversations.find(tx, tenantId, id);
      return { conversation, record: { ...toSummary(conversation), ...(await this.conversations.thread(tx, tenantId, id)) } };
    });
  }

  /**
   * Take over (`handed_off`), give back (`active`), close; assign or unassign; label; move to a team. An assignee a
   * person chose is theirs to keep (routing's reassign timer is for routing's own picks); a handed-off conversation moved
   * to a team with nobody holding it waits in that team's queue, and routing hands it out.
   */
  async update(tenantId: string, id: string, change: ConversationChange): Promise<ConversationView> {
    if (change.team_id && !(await this.store.teamExists(tenantId, change.team_id))) {
      throw new ProblemException(validationProblem([{ field: 'team_id', message: `team_id "${change.team_id}" is not one of your teams (GET /api/v1/teams)` }]));
    }
    let queued = false;
    const summary = await this.act(tenantId, id, async (c, tx) => {
      const now = new Date();
      const changes: Partial<ConversationEntity> = {};
      if (change.assignee !== undefined && change.assignee !== c.assignee) Object.assign(changes, { assignee: change.assignee, assignedAt: null });
      if (change.state !== undefined && change.state !== c.state) {
        changes.state = change.state;
        if (change.state === 'active') changes.skillState = givenBack(c.skillState);
        if (change.state === 'handed_off') changes.handedOffAt = c.handedOffAt ?? now;
        changes.closedAt = change.state === 'closed' ? now : null;
      }
      if (change.labels !== undefined) changes.labels = [...new Set(change.labels)].sort();
      if (change.team_id !== undefined && change.team_id !== (c.teamId ?? null)) Object.assign(changes, { teamId: change.team_id, routedAt: now });
      const next = { ...c, ...changes };
      if (changes.teamId && next.state === 'handed_off' && !next.assignee) {
        // Into the team's queue (routed already: the person picked the team).
        changes.queuedAt = next.queuedAt = c.queuedAt && c.queuedAt <= now ? c.queuedAt : now;
        queued = true;
      }
      const events: StoredEvent[] = [];
      if (changes.state === 'handed_off') events.push(handoffEvent(tenantId, next, this.links, { agent: null, reason: 'member_took_over', at: now }));
      if (changes.state === 'closed') events.push(...(await this.askForRating(tx, tenantId, next, changes, now)));
      const kind = updateKind(changes);
      if (kind) events.push(conversationUpdatedEvent(tenantId, { ...next, ...changes }, kind, now));
      return { changes, events, result: toSummary({ ...next, ...changes }) };
    });
    if (queued) this.routingQueued.notify();
    return summary;
  }

  /**
   * A closed conversation's one rating question (CONTRACT.md §18), as the agent's message: only inside the customer's
   * 24-hour window (a WhatsApp list needs it; a question days later is noise), once per conversation, never on a call.
   * Their answer is read by the reply flow (RepliesService, ratingIn) into this conversation.
   */
  private async askForRating(tx: EntityManager, tenantId: string, c: ConversationEntity, changes: Partial<ConversationEntity>, now: Date): Promise<StoredEvent[]> {
    const language = isLanguage(c.skillState.language) ? c.skillState.language : 'en';
    const question = ratingQuestion(c.channel, language);
    if (!question || c.csatRequestedAt || now.getTime() - c.lastMessageAt.getTime() > SERVICE_WINDOW_MS) return [];
    const messageId = derivedId('msg', 'csat', c.id);
    const agent = await this.store.lastAgentName(tenantId, c.id, tx);
    const author: MessageAuthor = agent ? { type: 'agent', name: agent } : { type: 'api' };
    const turn = sentTurn(question.content);
    await this.store.insertSent(tenantId, c.id, { messageId, author, text: turn.text, at: now, content: turn.content, searchConfig: searchConfigOf(c.skillState.language) }, tx);
    Object.assign(changes, { csatRequestedAt: now, lastMessage: { text: turn.text, author, at: now.toISOString() } });
    return [toCustomerEvent(tenantId, c, { messageId, content: question.content, origin: 'agent', at: now, eventId: derivedId('evt', 'csat', c.id) })];
  }

  /** `POST …/release`: the agent answers again (= update to `active`). */
  release(tenantId: string, id: string): Promise<ConversationView> {
    return this.update(tenantId, id, { state: 'active' });
  }

  /**
   * A person's reply: sent through `message.outbound` like any message, stored in the thread with its author. It hands
   * an `active` conversation off (the agent falls silent) and reads the customer's messages. Refused (409) on a closed
   * conversation and, on WhatsApp, outside the customer-service window, where only a template may be sent.
   */
  reply(tenantId: string, id: string, text: string, actor: InboxActor): Promise<ConversationTurnRecord> {
    return this.act(tenantId, id, async (c, tx) => {
      const now = new Date();
      if (c.state === 'closed') {
        throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conversation Closed', `Conversation "${id}" is closed; reopen it (PATCH state) to reply.`));
      }
      // The 24-hour customer-service window is WhatsApp's rule (CONTRACT.md §4); SMS and email answer whenever.
      const windowEnds = c.lastMessageAt.getTime() + SERVICE_WINDOW_MS;
      if (c.channel === 'whatsapp' && now.getTime() > windowEnds) {
        throw new ProblemException(
          problem(
            409,
            ProblemTypes.windowClosed,
            'Customer Service Window Closed',
            `The customer last wrote more than 24 hours ago (the window closed at ${new Date(windowEnds).toISOString()}): only a template can be sent now (POST /v1/send with template).`,
          ),
        );
      }
      const author: MessageAuthor = actor;
      const messageId = newId('msg');
      await tx
        .getRepository(ConversationMessageEntity)
        .insert({ conversationId: c.id, tenantId, messageId, role: 'member', author, text, at: now, searchConfig: searchConfigOf(c.skillState.language) });
      const changes: Partial<ConversationEntity> = { unread: 0, lastMessage: { text, author, at: now.toISOString() }, ...memberReplied(c, now) };
      const next = { ...c, ...changes };
      const events: StoredEvent[] = [
        toCustomerEvent(tenantId, c, { messageId, content: { type: 'text', text }, origin: 'api', author: actor, at: now }),
        conversationUpdatedEvent(tenantId, next, 'message', now),
      ];
      if (changes.state === 'handed_off') events.push(handoffEvent(tenantId, next, this.links, { agent: null, reason: 'member_replied', at: now }));
      return { changes, events, result: { message_id: messageId, role: 'member' as const, author, text, at: now.toISOString() } };
    });
  }

  /**
   * A message sent through `POST /v1/send` (a template from the inbox's closed window, a photo, a location, a
   * campaign's template): kept in the customer's latest conversation on that number like a person's reply. One a
   * signed-in member sent reads the thread and hands an `active` conversation off, as their reply would; a program's
   * send leaves the agent answering. The inbox's own replies are in the thread already (same message id: kept once).
   */
  async recordSend(tenantId: string, sent: MessageOutboundData): Promise<void> {
    if (sent.origin !== 'api') return;
    const id = await this.conversations.latestWith(this.db.manager, tenantId, sent);
    if (!id) return;
    try {
      await this.act(tenantId, id, async (c, tx) => {
        const { text, content } = sentTurn(sent.content);
        const author: MessageAuthor = sent.author ?? { type: 'api' };
        const at = new Date(sent.accepted_at);
        const inserted = await this.store.insertSent(
          tenantId,
          c.id,
          { messageId: sent.message_id, author, text, at, content: content ?? null, searchConfig: searchConfigOf(c.skillState.language) },
          tx,
        );
        // Kept once; and a send older than the thread's last message (a late redelivery) changes nothing else.
        if (!inserted || (c.lastMessage && Date.parse(c.lastMessage.at) > at.getTime())) return { changes: {}, events: [], result: undefined };
        const changes: Partial<ConversationEntity> = { lastMessage: { text, author, at: at.toISOString() } };
        if (author.type === 'member') Object.assign(changes, { unread: 0 }, memberReplied(c, at));
        const next = { ...c, ...changes };
        const now = new Date();
        const events: StoredEvent[] = [conversationUpdatedEvent(tenantId, next, 'message', now)];
        if (changes.state === 'handed_off') events.push(handoffEvent(tenantId, next, this.links, { agent: null, reason: 'member_replied', at: now }));
        return { changes, events, result: undefined };
      });
    } catch (err) {
      // Erased (contact.deleted) since it was found: nothing to keep it in.
      if (err instanceof ProblemException && err.problem.status === 404) return;
      throw err;
    }
  }

  /** An internal note: stored beside the thread, never sent to the customer. */
  note(tenantId: string, id: string, text: string, actor: InboxActor): Promise<ConversationNoteRecord> {
    return this.act(tenantId, id, async (c, tx) => {
      const note: ConversationNoteEntity = { id: newId('nte'), tenantId, conversationId: c.id, text, mentions: mentionsIn(text), author: actor, at: new Date() };
      await tx.getRepository(ConversationNoteEntity).insert(note);
      const mentioned = [...new Set([...(c.mentioned ?? []), ...note.mentions])];
      const changes: Partial<ConversationEntity> = mentioned.length > (c.mentioned ?? []).length ? { mentioned } : {};
      return { changes, events: [conversationUpdatedEvent(tenantId, { ...c, ...changes }, 'note', note.at)], result: toNoteRecord(note) };
    });
  }

  /**
   * Runs an action under the conversation's lock: writes its changes and queues its events in one transaction, then
   * wakes the relay. Publishing inside the transaction could send a reply whose commit then failed (sent, not
   * recorded) or commit one whose process died before the send (recorded, never sent).
   */
  private act<T>(tenantId: string, id: string, action: (c: ConversationEntity, tx: EntityManager) => Applied<T> | Promise<Applied<T>>): Promise<T> {
    return this.relay.relayAfter(
      (work) => this.db.transaction(work),
      async (tx) => {
        const conversation = await this.conversations.findLocked(tx, tenantId, id);
        const { changes, events, result } = await action(conversation, tx);
        if (Object.keys(changes).length > 0) await tx.getRepository(ConversationEntity).update({ id, tenantId }, changes);
        await enqueueEvents(tx, events);
        return result;
      },
    );
  }
}

/** A person's reply: the first response (once), the latest, and a handoff of a conversation the agent was answering. */
function memberReplied(c: ConversationEntity, at: Date): Partial<ConversationEntity> {
  const changes: Partial<ConversationEntity> = { memberRepliedAt: at, firstMemberReplyAt: c.firstMemberReplyAt ?? at };
  if (c.state === 'active') Object.assign(changes, { state: 'handed_off', handedOffAt: c.handedOffAt ?? at });
  return changes;
}

/**
 * The kind `conversation.updated` names (its kinds are fixed in v2; the dashboards re-read the conversation it
 * carries whatever the kind): a state change first, then who holds it (routing, a team), then its labels.
 */
function updateKind(changes: Partial<ConversationEntity>): ConversationUpdateKind | null {
  if (changes.state !== undefined) return 'state';
  if (changes.assignee !== undefined || changes.teamId !== undefined) return 'assignee';
  if (changes.labels !== undefined) return 'state';
  return null;
}

/** A fresh start for the skills' give-up counters when the agent answers again; what they collected stays. */
function givenBack(state: SkillState): SkillState {
  const next: SkillState = { ...state, humanOffered: false, unknownStreak: 0 };
  if (next.booking) next.booking = { ...next.booking, misses: 0 };
  return next;
}
