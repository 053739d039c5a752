import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  newId,
  notFoundProblem,
  type ChannelKind,
  type ConversationSource,
  type ConversationFilter,
  type ConversationNoteRecord,
  type ConversationSummary,
  type ConversationTurnRecord,
  type MessageAuthor,
  type MessageOutboundData,
  type Page,
} from '@parley/contracts';
import { ListCursors, ProblemException } from '@parley/service-kit';
import { DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { pageAfter } from '../common/pages';
import { ConversationEntity, ConversationMessageEntity, ConversationNoteEntity, type TurnContent, type TurnRole } from './conversation.entity';
import { toSummary } from './inbox-events';
import { searchTerms, termQuerySql } from './inbox-search';

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: ListCursors,
  ) {}

  /** The inbox: newest first, filtered (CONTRACT.md §12). */
  async list(tenantId: string, limit: number, cursor: string | null, filter: Partial<ConversationFilter> = {}): Promise<Page<ConversationSummary>> {
    const qb = this.db.getRepository(ConversationEntity).createQueryBuilder('c').where('c.tenant_id = :tenantId', { tenantId });
    if (filter.state) qb.andWhere('c.state = :state', { state: filter.state });
    if (filter.assignee === 'none') qb.andWhere('c.assignee IS NULL');
    else if (filter.assignee) qb.andWhere('c.assignee = :assignee', { assignee: filter.assignee });
    // A channel id filters its conversations; a channel kind (whatsapp, sms…) those on every channel of that kind.
    if (filter.channel?.startsWith('chn_')) qb.andWhere('c.channel_id = :channelId', { channelId: filter.channel });
    else if (filter.channel) qb.andWhere('c.channel = :kind', { kind: filter.channel });
    if (filter.source) qb.andWhere('c.source = :source', { source: filter.source });
    if (filter.q) this.search(qb, tenantId, filter.q);
    const page = await pageAfter(qb, 'c', limit, cursor, this.cursors.of(tenantId, 'conversations'));
    return { data: page.rows.map(toSummary), next_cursor: page.nextCursor };
  }

  /**
   * Narrows the inbox to conversations where every word of `q` is in something the customer or the business wrote
   * (full-text search over the thread's messages, in the conversation's language, accent-insensitive, a prefix while
   * typing; see inbox-search.ts) or in the contact's name or number. A query that is a phone number (`+1 (415) 555`)
   * also finds the numbers that contain its digits.
   */
  private search(qb: SelectQueryBuilder<ConversationEntity>, tenantId: string, q: string): void {
    const terms = searchTerms(q);
    const conditions = terms.map((term, i) => {
      const param = `term${i}`;
      qb.setParameter(param, term).setParameter(`${param}Like`, `%${escapeLike(term)}%`);
      // `search @@ …` per term, so a conversation matches with its words spread over several messages.
      return `(coalesce(c.contact_name, c.lead_name, c.profile_name) ILIKE :${param}Like OR c.customer ILIKE :${param}Like OR c.id IN (
        SELECT m.conversation_id FROM conversation_messages m WHERE m.tenant_id = :tenantId AND m.search @@ ${termQuerySql(`:${param}`, term)}))`;
    });
    const digits = q.replace(/\D/g, '');
    // "+1 (415) 555" finds +1415555…: a query that is a phone number is matched on its digits.
    const phoneLike = /^[\d\s()+.-]+$/.test(q) && digits.length >= 3;
    if (phoneLike) {
      qb.setParameter('digits', `%${digits}%`);
      conditions.splice(0, conditions.length, `(regexp_replace(c.customer, '\\D', '', 'g') LIKE :digits OR (${conditions.join(' AND ') || 'false'}))`);
    }
    qb.setParameter('tenantId', tenantId).andWhere(conditions.length > 0 ? `(${conditions.join(' AND ')})` : 'false');
  }

  /**
   * The dashboard's playground is about to write as `customer` (issue 32): their conversations, those they have and
   * those to come (BurstStore.read), are the playground's. Answers how many existing ones it marked. Idempotent.
   */
  async markPlaygroundCustomer(tenantId: string, customer: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO playground_customers (tenant_id, customer) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [tenantId, customer]);
      const [, marked]: [unknown, number] = await tx.query(`UPDATE conversations SET source = 'playground' WHERE tenant_id = $1 AND customer = $2 AND source <> 'playground'`, [
        tenantId,
        customer,
      ]);
      return marked;
    });
  }

  /** The conversation; another tenant's is not found. */
  async find(manager: EntityManager, tenantId: string, id: string): Promise<ConversationEntity> {
    const conversation = await manager.getRepository(ConversationEntity).findOne({ where: { id, tenantId } });
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
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM conversations WHERE tenant_id = $1 AND customer = $2 AND ($3::text IS NULL OR channel_id = $3) AND ($4::text IS NULL OR business_number = $4)
        ORDER BY last_message_at DESC LIMIT 1`,
      [tenantId, sent.to, sent.channel_id ?? null, sent.channel_id ? null : sent.from],
    );
    return rows[0]?.id ?? null;
  }

  /** The thread (its newest THREAD_LIMIT messages) and the notes, oldest first. */
  async thread(manager: EntityManager, tenantId: string, id: string): Promise<{ messages: ConversationTurnRecord[]; notes: ConversationNoteRecord[] }> {
    const [messages, notes] = await Promise.all([
      manager.getRepository(ConversationMessageEntity).find({ where: { tenantId, conversationId: id }, order: { id: 'DESC' }, take: THREAD_LIMIT }),
      manager.getRepository(ConversationNoteEntity).find({ where: { tenantId, conversationId: id }, order: { id: 'ASC' } }),
    ]);
    return { messages: messages.reverse().map(toTurnRecord), notes: notes.map(toNoteRecord) };
  }

  /** Serialises work on one tenant number + customer until the transaction ends. */
  async lock(tx: EntityManager, tenantId: string, businessNumber: string, customer: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(['cnv', tenantId, businessNumber, customer])]);
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
    const rows = await tx.getRepository(ConversationMessageEntity).find({
      where: { tenantId, conversationId },
      order: { id: 'DESC' },
      take: CONVERSATION_MEMORY,
    });
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
  return { id: n.id, conversation_id: n.conversationId, text: n.text, author: n.author, at: n.at.toISOString() };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
