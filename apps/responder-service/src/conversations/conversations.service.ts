import { Injectable } from '@nestjs/common';
import {
  newId,
  notFoundProblem,
  type ChannelKind,
  type ConversationSource,
  type ConversationFilter,
  type ConversationNoteRecord,
  type ConversationView,
  type ConversationTurnRecord,
  type MessageAuthor,
  type MessageOutboundData,
  type Page,
} from '@parley/contracts';
import { ListCursors, ProblemException } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import type { ConversationEntity, ConversationMessageEntity, ConversationNoteEntity, TurnContent, TurnRole } from './conversation.entity';
import { ConversationsStore } from './conversations.store';
import { toSummary } from './inbox-events';

/** A conversation starts anew after this much silence (CONTRACT.md §10). */
export const CONVERSATION_SILENCE_MS = 24 * 60 * 60 * 1000;
/** Turns a reply is computed from: the newest of the thread. */
export const CONVERSATION_MEMORY = 50;
/** Messages one read of a thread returns: its newest. */
export const THREAD_LIMIT = 1000;

export interface ConversationParty {
  channelId: string;
  channel: ChannelKind;
  businessNumber: string;
  customer: string;
}

export interface Turn {
  messageId: string;
  role: TurnRole;
  /** Null for the customer's messages. */
  author: MessageAuthor | null;
  text: string;
  at: Date;
  /** A customer's file or tapped reply, stored with the turn for the inbox thread. */
  content?: TurnContent | null;
}

/**
 * Conversations, their threads and notes. Methods taking a transaction run inside the caller's, which must hold
 * `lock()` for the conversation's parties first, so one conversation is never advanced by two handlers at once.
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationsStore,
    private readonly cursors: ListCursors,
  ) {}

  /** The inbox: newest first, filtered (CONTRACT.md §12). */
  async list(tenantId: string, limit: number, cursor: string | null, filter: Partial<ConversationFilter> = {}): Promise<Page<ConversationView>> {
    const page = await this.conversations.page(tenantId, filter, limit, cursor, this.cursors.of(tenantId, 'conversations'));
    return { data: page.rows.map(toSummary), next_cursor: page.nextCursor };
  }

  /**
   * The dashboard's playground is about to write as `customer` (issue 32): their conversations, those they have and
   * those to come (BurstStore.read), are the playground's. Answers how many existing ones it marked. Idempotent.
   */
  markPlaygroundCustomer(tenantId: string, customer: string): Promise<number> {
    return this.conversations.markPlaygroundCustomer(tenantId, customer);
  }

  /** The conversation; another tenant's is not found. */
  async find(manager: EntityManager, tenantId: string, id: string): Promise<ConversationEntity> {
    const conversation = await this.conversations.find(tenantId, id, manager);
    if (!conversation) throw new ProblemException(notFoundProblem(`Conversation "${id}"`));
    return conversation;
  }

  /** The conversation, read again under its lock (taken here) in the caller's transaction. */
  async findLocked(tx: EntityManager, tenantId: string, id: string): Promise<ConversationEntity> {
    const found = await this.find(tx, tenantId, id);
    await this.lock(tx, tenantId, found.businessNumber, found.customer);
    return this.find(tx, tenantId, id);
  }

  /** The conversation a send to the customer belongs in: their latest on its channel or number (any, for the default). */
  async latestWith(manager: EntityManager, tenantId: string, sent: Pick<MessageOutboundData, 'to' | 'from' | 'channel_id'>): Promise<string | null> {
    return this.conversations.latestWith(tenantId, sent, manager);
  }

  /** The thread (its newest THREAD_LIMIT messages) and the notes, oldest first. */
  async thread(manager: EntityManager, tenantId: string, id: string): Promise<{ messages: ConversationTurnRecord[]; notes: ConversationNoteRecord[] }> {
    const { messages, notes } = await this.conversations.thread(tenantId, id, THREAD_LIMIT, manager);
    return { messages: messages.reverse().map(toTurnRecord), notes: notes.map(toNoteRecord) };
  }

  /** Serialises work on one tenant number + customer until the transaction ends. */
  async lock(tx: EntityManager, tenantId: string, businessNumber: string, customer: string): Promise<void> {
    await this.conversations.lock(tenantId, businessNumber, customer, tx);
  }

  /**
   * A new conversation of the parties, from `at` (written by the reply's commit, BurstStore.write); `playground` when the
   * dashboard's playground plays the customer.
   */
  started(tenantId: string, party: ConversationParty, at: Date, source: ConversationSource = 'customer'): ConversationEntity {
    return {
      id: newId('cnv'),
      tenantId,
      channelId: party.channelId,
      channel: party.channel,
      businessNumber: party.businessNumber,
      customer: party.customer,
      state: 'active',
      replyCount: 0,
      skillState: {},
      startedAt: at,
      lastMessageAt: at,
      assignee: null,
      unread: 0,
      // crm-service's name for the customer is filled in as the conversation is stored (burst.store.ts).
      contactName: null,
      leadName: null,
      profileName: null,
      lastMessage: null,
      lastCustomerMessage: null,
      source,
    };
  }

  /** The remembered turns a reply is computed from, oldest first. */
  async history(tx: EntityManager, tenantId: string, conversationId: string): Promise<Turn[]> {
    const rows = await this.conversations.recentMessages(tenantId, conversationId, CONVERSATION_MEMORY, tx);
    return rows.reverse().map((r) => ({ messageId: r.messageId, role: r.role, author: r.author, text: r.text, at: r.at }));
  }
}

/** The author of a stored turn (turns written before authors were stored name no agent). */
export function authorOf(role: TurnRole, author: MessageAuthor | null): MessageAuthor {
  if (author) return author;
  return role === 'customer' ? { type: 'customer' } : role === 'agent' ? { type: 'agent', name: 'agent' } : { type: 'api' };
}

function toTurnRecord(m: ConversationMessageEntity): ConversationTurnRecord {
  return { message_id: m.messageId, role: m.role, author: authorOf(m.role, m.author), text: m.text, at: m.at.toISOString(), ...(m.content ?? {}) };
}

export function toNoteRecord(n: ConversationNoteEntity): ConversationNoteRecord {
  return { id: n.id, conversation_id: n.conversationId, text: n.text, mentions: n.mentions ?? [], author: n.author, at: n.at.toISOString() };
}

