import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ConversationFilter, MessageAuthor, MessageOutboundData } from '@parley/contracts';
import type { ListCursor } from '@parley/service-kit';
import { DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { pageAfter } from '../common/pages';
import { ConversationEntity, ConversationMessageEntity, ConversationNoteEntity, type TurnContent } from './conversation.entity';
import { searchTerms, termQuerySql } from './inbox-search';

/**
 * Conversations, their threads and notes as stored; the tenant id first. Methods taking a transaction run inside the
 * caller's, which holds `lock()` for the conversation's parties first.
 */
@Injectable()
export class ConversationsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The inbox newest first, filtered, a page after `cursor`. */
  page(tenantId: string, filter: Partial<ConversationFilter>, limit: number, cursor: string | null, cursors: ListCursor): Promise<{ rows: ConversationEntity[]; nextCursor: string | null }> {
    const qb = this.db.getRepository(ConversationEntity).createQueryBuilder('c').where('c.tenant_id = :tenantId', { tenantId });
    if (filter.state) qb.andWhere('c.state = :state', { state: filter.state });
    if (filter.assignee === 'none') qb.andWhere('c.assignee IS NULL');
    else if (filter.assignee) qb.andWhere('c.assignee = :assignee', { assignee: filter.assignee });
    // A channel id filters its conversations; a channel kind (whatsapp, sms…) those on every channel of that kind.
    if (filter.channel?.startsWith('chn_')) qb.andWhere('c.channel_id = :channelId', { channelId: filter.channel });
    else if (filter.channel) qb.andWhere('c.channel = :kind', { kind: filter.channel });
    if (filter.source) qb.andWhere('c.source = :source', { source: filter.source });
    if (filter.team_id) qb.andWhere('c.team_id = :teamId', { teamId: filter.team_id });
    if (filter.label) qb.andWhere(':label = ANY(c.labels)', { label: filter.label });
    if (filter.mentioned) qb.andWhere(':mentioned = ANY(c.mentioned)', { mentioned: filter.mentioned });
    if (filter.q) this.search(qb, tenantId, filter.q);
    return pageAfter(qb, 'c', limit, cursor, cursors);
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
   * The customer's conversations, those they have and those to come (BurstStore.read), are the playground's. Answers
   * how many existing ones it marked. Idempotent.
   */
  markPlaygroundCustomer(tenantId: string, customer: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO playground_customers (tenant_id, customer) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [tenantId, customer]);
      const [, marked]: [unknown, number] = await tx.query(`UPDATE conversations SET source = 'playground' WHERE tenant_id = $1 AND customer = $2 AND source <> 'playground'`, [
        tenantId,
        customer,
      ]);
      return marked;
    });
  }

  find(tenantId: string, id: string, tx: EntityManager = this.db.manager): Promise<ConversationEntity | null> {
    return tx.getRepository(ConversationEntity).findOne({ where: { id, tenantId } });
  }

  /** The customer's latest conversation on a channel (or business number; any, for neither). */
  async latestWith(tenantId: string, sent: Pick<MessageOutboundData, 'to' | 'from' | 'channel_id'>, tx: EntityManager = this.db.manager): Promise<string | null> {
    const rows: { id: string }[] = await tx.query(
      `SELECT id FROM conversations WHERE tenant_id = $1 AND customer = $2 AND ($3::text IS NULL OR channel_id = $3) AND ($4::text IS NULL OR business_number = $4)
        ORDER BY last_message_at DESC LIMIT 1`,
      [tenantId, sent.to, sent.channel_id ?? null, sent.channel_id ? null : sent.from],
    );
    return rows[0]?.id ?? null;
  }

  /** Per pair, whether the tenant has any conversation with the customer, in one statement. */
  async haveConversations(pairs: { tenantId: string; customer: string }[]): Promise<boolean[]> {
    const rows = (await this.db.query(
      `SELECT x.n FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(tenant_id, customer, n)
       WHERE EXISTS (SELECT 1 FROM conversations c WHERE c.tenant_id = x.tenant_id AND c.customer = x.customer)`,
      [pairs.map((p) => p.tenantId), pairs.map((p) => p.customer)],
    )) as { n: string }[];
    const found = new Set(rows.map((r) => Number(r.n) - 1));
    return pairs.map((_, i) => found.has(i));
  }

  /** The newest `limit` messages of the thread (newest first) and the notes (oldest first). */
  async thread(tenantId: string, id: string, limit: number, tx: EntityManager = this.db.manager): Promise<{ messages: ConversationMessageEntity[]; notes: ConversationNoteEntity[] }> {
    const [messages, notes] = await Promise.all([
      tx.getRepository(ConversationMessageEntity).find({ where: { tenantId, conversationId: id }, order: { id: 'DESC' }, take: limit }),
      tx.getRepository(ConversationNoteEntity).find({ where: { tenantId, conversationId: id }, order: { id: 'ASC' } }),
    ]);
    return { messages, notes };
  }

  /**
   * A message the business sent into the thread, once (by its message id), searchable in `searchConfig`'s language;
   * false when the thread has it already.
   */
  async insertSent(
    tenantId: string,
    conversationId: string,
    message: { messageId: string; author: MessageAuthor; text: string; at: Date; content: TurnContent | null; searchConfig: string },
    tx: EntityManager,
  ): Promise<boolean> {
    const inserted: unknown[] = await tx.query(
      `INSERT INTO conversation_messages (conversation_id, tenant_id, message_id, role, author, text, at, content, search_config)
       VALUES ($1, $2, $3, $9, $4::jsonb, $5, $6, $7::jsonb, $8::regconfig) ON CONFLICT (message_id) DO NOTHING RETURNING id`,
      [
        conversationId,
        tenantId,
        message.messageId,
        JSON.stringify(message.author),
        message.text,
        message.at,
        message.content ? JSON.stringify(message.content) : null,
        message.searchConfig,
        // the agent's own messages (a rating question) are the agent's turns; every other send is a person's or a program's
        message.author.type === 'agent' ? 'agent' : 'member',
      ],
    );
    return inserted.length > 0;
  }

  /** The newest `limit` messages of the thread, newest first. */
  recentMessages(tenantId: string, id: string, limit: number, tx: EntityManager): Promise<ConversationMessageEntity[]> {
    return tx.getRepository(ConversationMessageEntity).find({ where: { tenantId, conversationId: id }, order: { id: 'DESC' }, take: limit });
  }

  /**
   * An agent's reply of a conversation and what the customer wrote since the reply before it (the question it
   * answered, a burst read together); null when the conversation has no such message. `agent`: its author's name.
   */
  async agentReplyWithQuestion(tenantId: string, conversationId: string, messageId: string): Promise<{ text: string; agent: string | null; question: string; customer: string } | null> {
    const [reply]: { id: string; role: string; author: MessageAuthor | null; text: string; customer: string }[] = await this.db.query(
      `SELECT m.id, m.role, m.author, m.text, c.customer FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE m.tenant_id = $1 AND m.conversation_id = $2 AND m.message_id = $3`,
      [tenantId, conversationId, messageId],
    );
    if (!reply || reply.role !== 'agent') return null;
    const asked: { text: string }[] = await this.db.query(
      `SELECT text FROM conversation_messages
        WHERE tenant_id = $1 AND conversation_id = $2 AND role = 'customer' AND id < $3
          AND id > COALESCE((SELECT max(id) FROM conversation_messages WHERE tenant_id = $1 AND conversation_id = $2 AND role <> 'customer' AND id < $3), 0)
        ORDER BY id`,
      [tenantId, conversationId, reply.id],
    );
    return { text: reply.text, agent: reply.author?.type === 'agent' ? reply.author.name : null, question: asked.map((m) => m.text).join('\n'), customer: reply.customer };
  }

  /** The name of the agent that last answered in the conversation: who the waiting message speaks as. */
  async lastAgentName(tenantId: string, conversationId: string, tx: EntityManager = this.db.manager): Promise<string | null> {
    const [row]: { author: MessageAuthor | null }[] = await tx.query(
      `SELECT author FROM conversation_messages WHERE tenant_id = $1 AND conversation_id = $2 AND role = 'agent' ORDER BY id DESC LIMIT 1`,
      [tenantId, conversationId],
    );
    return row?.author?.type === 'agent' ? row.author.name : null;
  }

  /** Whether the tenant has the team (a conversation moved to it). */
  async teamExists(tenantId: string, teamId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM teams WHERE tenant_id = $1 AND id = $2`, [tenantId, teamId]);
    return rows.length > 0;
  }

  /** Serialises work on one tenant number + customer until `tx` ends. */
  async lock(tenantId: string, businessNumber: string, customer: string, tx: EntityManager): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(['cnv', tenantId, businessNumber, customer])]);
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
