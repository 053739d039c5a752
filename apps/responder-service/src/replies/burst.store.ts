import type { AgentRecord, LastMessage } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import { selectAgent } from '../agents/agent-selection';
import type { ConversationEntity } from '../conversations/conversation.entity';
import { CONVERSATION_MEMORY, CONVERSATION_SILENCE_MS, type ConversationParty, type Turn } from '../conversations/conversations.service';
import type { ProcessedMessageEntity, StoredEvent } from './processed-message.entity';
import { searchConfigOf } from '../conversations/inbox-search';
import { RATING_ANSWER_MS } from '../conversations/csat';
import type { SkillState } from './reply-engine';

/** What handling a burst reads: its stored outcomes, the agent that answers, and the conversation it continues. */
export interface BurstState {
  /** The burst's messages already handled, in the order asked for. */
  processed: ProcessedMessageEntity[];
  agent: AgentRecord | null;
  /** The conversation the burst belongs to (null when it starts a new one, after 24 h of silence or ever). */
  conversation: ConversationEntity | null;
  /** The conversation's remembered turns, oldest first (only when asked for). */
  history: Turn[];
  /** The dashboard's playground plays this customer (playground_customers): a new conversation is the playground's. */
  playground: boolean;
  /** The customer's latest conversation when it is closed and waits for their rating (asked less than a day ago). */
  ratable: ConversationEntity | null;
}

/** How one burst changes its conversation: the turns to remember and the conversation's next state. */
export interface ConversationChange {
  /** The conversation to advance, or to start when `isNew`. */
  conversation: ConversationEntity;
  isNew: boolean;
  turns: Turn[];
  handedOff: boolean;
  /** What handed it off, for the routing rules: the skill that gave up, or `human` when the customer asked for a person. */
  handoffSkill?: string | null;
  /** The customer's rating of the (closed) conversation, 1–5, when the burst gave one. */
  rating?: number | null;
  skillState?: SkillState;
  /** Customer messages of the burst no one answered or that a person must answer: they count as unread. */
  unreadAdded: number;
  lastMessage: LastMessage;
  /** The lead's name if the burst stored one, and the customer's WhatsApp profile name if it carried one. */
  leadName: string | null;
  profileName: string | null;
}

interface StateRow {
  playground: boolean;
  processed: ProcessedJson[];
  agents: AgentRecord[];
  conversation: ConversationJson | null;
  history: TurnJson[] | null;
}
type ProcessedJson = Omit<ProcessedMessageEntity, 'processedAt' | 'publishedAt'> & { processedAt: string; publishedAt: string | null };
type ConversationJson = Omit<ConversationEntity, 'startedAt' | 'lastMessageAt' | 'slaFirstResponseDueAt' | 'slaResolutionDueAt' | 'csatRequestedAt'> & {
  startedAt: string;
  lastMessageAt: string;
  slaFirstResponseDueAt: string | null;
  slaResolutionDueAt: string | null;
  csatRequestedAt: string | null;
};
type TurnJson = Omit<Turn, 'at'> & { at: string };

/**
 * A data-modifying statement another module writes with a burst (a reply's outcome for analytics, a question for the
 * gaps), run as a part (CTE) of the burst's one write statement rather than a round trip of its own. `bind` adds a
 * parameter and answers its placeholder (`$n`).
 */
export type WritePart = (bind: (value: unknown) => string) => string;

/**
 * The reply flow's reads and writes, each one statement, so a burst costs a few database round trips instead of one per
 * table (the round trips, not the queries, were most of the responder's CPU). Runs in the caller's transaction.
 */
export class BurstStore {
  /**
   * Everything a draft or its commit depends on, in one statement: the burst's stored outcomes, the tenant's oldest live
   * agent and the channel's (CONTRACT.md §6), and the latest conversation of the parties, with its memory when
   * `withHistory`.
   */
  static async read(
    manager: EntityManager,
    tenantId: string,
    inboundMessageIds: string[],
    party: ConversationParty,
    channelAgent: string | null,
    at: Date,
    withHistory: boolean,
  ): Promise<BurstState> {
    const [row]: StateRow[] = await manager.query(
      `WITH conv AS (
         SELECT id, tenant_id AS "tenantId", channel_id AS "channelId", channel, business_number AS "businessNumber", customer, state,
                reply_count AS "replyCount", skill_state AS "skillState", started_at AS "startedAt", last_message_at AS "lastMessageAt",
                assignee, unread, contact_name AS "contactName", lead_name AS "leadName", profile_name AS "profileName", last_message AS "lastMessage",
                last_customer_message AS "lastCustomerMessage", source, team_id AS "teamId", labels,
                sla_first_response_due_at AS "slaFirstResponseDueAt", sla_resolution_due_at AS "slaResolutionDueAt", sla_breaches AS "slaBreaches", csat_requested_at AS "csatRequestedAt", rating_score AS "ratingScore"
           FROM conversations WHERE tenant_id = $1 AND business_number = $2 AND customer = $3
          ORDER BY last_message_at DESC LIMIT 1)
       SELECT
         EXISTS (SELECT 1 FROM playground_customers WHERE tenant_id = $1 AND customer = $3) AS playground,
         (SELECT coalesce(json_agg(p), '[]') FROM (
            SELECT inbound_message_id AS "inboundMessageId", tenant_id AS "tenantId", conversation_id AS "conversationId",
                   reply_message_id AS "replyMessageId", events, processed_at AS "processedAt", published_at AS "publishedAt"
              FROM processed_messages WHERE tenant_id = $1 AND inbound_message_id = ANY($4::text[])) p) AS processed,
         (SELECT coalesce(json_agg(a.record), '[]') FROM (
            (SELECT record FROM agents WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY agent_created_at, agent_id LIMIT 1)
            UNION ALL
            (SELECT record FROM agents WHERE tenant_id = $1 AND name = $5::text AND deleted_at IS NULL)) a
           WHERE a.record IS NOT NULL) AS agents,
         (SELECT row_to_json(conv) FROM conv) AS conversation,
         CASE WHEN $6::boolean THEN (SELECT coalesce(json_agg(h ORDER BY h.id), '[]') FROM (
            SELECT id, message_id AS "messageId", role, author, text, at FROM conversation_messages
             WHERE tenant_id = $1 AND conversation_id = (SELECT id FROM conv) ORDER BY id DESC LIMIT $7) h) END AS history`,
      [tenantId, party.businessNumber, party.customer, inboundMessageIds, channelAgent, withHistory, CONVERSATION_MEMORY],
    );
    const stored = row.processed.map(toProcessed);
    const latest = row.conversation ? toConversation(row.conversation) : null;
    // A conversation silent for 24 h is over, and so is a closed one: the message starts a new one (CONTRACT.md §10, §12).
    const current = latest && latest.state !== 'closed' && at.getTime() - latest.lastMessageAt.getTime() <= CONVERSATION_SILENCE_MS ? latest : null;
    // A closed one asked for its rating a moment ago takes the answer (RepliesService, ratingIn) rather than a new one.
    const asked = latest?.state === 'closed' && !latest.ratingScore ? latest.csatRequestedAt : null;
    const ratable = asked && at.getTime() - asked.getTime() <= RATING_ANSWER_MS ? latest : null;
    return {
      processed: inboundMessageIds.flatMap((id) => stored.filter((r) => r.inboundMessageId === id)),
      agent: selectAgent(channelAgent, row.agents),
      conversation: current,
      history: current && row.history ? row.history.map((t) => ({ messageId: t.messageId, role: t.role, author: t.author, text: t.text, at: new Date(t.at) })) : [],
      playground: row.playground,
      ratable,
    };
  }

  /** The conversation as a burst's change leaves it. */
  static next(change: ConversationChange): ConversationEntity {
    const { conversation: c, turns } = change;
    // The customer's messages drive the clock (a reply follows at once), so a backlog handled late does not stretch a
    // conversation that, as the customer saw it, had long gone silent.
    const lastMessageAt = new Date(Math.max(c.lastMessageAt.getTime(), ...turns.filter((t) => t.role === 'customer').map((t) => t.at.getTime())));
    return {
      ...c,
      lastCustomerMessage: lastCustomerMessageAfter(c.lastCustomerMessage ?? null, turns),
      lastMessageAt,
      replyCount: c.replyCount + turns.filter((t) => t.role === 'agent').length,
      state: change.handedOff ? 'handed_off' : c.state,
      skillState: change.skillState ?? c.skillState,
      unread: c.unread + change.unreadAdded,
      lastMessage: change.lastMessage,
      leadName: change.leadName ?? c.leadName,
      profileName: change.profileName ?? c.profileName,
      ...(change.rating ? { ratingScore: change.rating, ratedAt: new Date() } : {}),
    };
  }

  /**
   * Writes a burst's outcome in one statement: the conversation (started or advanced: replies counted, hand-off, skill
   * state, the inbox's unread count, last message and contact name), its new turns (the thread keeps them all; replies
   * read only the newest CONVERSATION_MEMORY), the outcome rows, and the other modules' `parts`. The caller holds the
   * conversation's lock.
   */
  static async write(tx: EntityManager, tenantId: string, change: ConversationChange, outcomes: ProcessedMessageEntity[], parts: WritePart[] = []): Promise<void> {
    const { turns } = change;
    const c = BurstStore.next(change);
    const params: unknown[] = [
      c.id,
      tenantId,
      c.lastMessageAt,
      c.replyCount,
      c.state,
      JSON.stringify(c.skillState),
      c.unread,
      JSON.stringify(c.lastMessage),
      turns.map((t) => t.messageId),
      turns.map((t) => t.role),
      turns.map((t) => (t.author ? JSON.stringify(t.author) : null)),
      turns.map((t) => t.text),
      turns.map((t) => t.at),
      outcomes.map((o) => o.inboundMessageId),
      outcomes.map((o) => o.replyMessageId),
      outcomes.map((o) => JSON.stringify(o.events)),
      c.leadName,
      c.profileName,
      turns.map((t) => (t.content ? JSON.stringify(t.content) : null)),
      c.lastCustomerMessage ? JSON.stringify(c.lastCustomerMessage) : null,
      // Each turn's words are stemmed in the conversation's language as it stands after the burst (inbox-search.ts).
      turns.map(() => searchConfigOf(c.skillState.language)),
    ];
    if (change.isNew) params.push(c.channelId, c.businessNumber, c.customer, c.startedAt, c.channel, c.source);
    // An agent's handoff puts the conversation in its team's queue (RoutingWorker, after the commit).
    const handedOff = `$${params.push(change.handedOff)}::boolean`;
    const handoffSkill = `$${params.push(change.handedOff ? (change.handoffSkill ?? null) : null)}::text`;
    const rating = `$${params.push(change.rating ?? null)}::int`;
    // Every parameter must appear in the statement (PostgreSQL cannot type an unused one): a start's own come last.
    const conversationStatement = change.isNew
      ? `INSERT INTO conversations (id, tenant_id, channel_id, business_number, customer, state, reply_count, skill_state, started_at, last_message_at,
                                    unread, last_message, lead_name, profile_name, channel, last_customer_message, source, contact_name, queued_at, handoff_skill,
                                    handed_off_at, rating_score)
         VALUES ($1, $2, $22, $23, $24, $5, $4, $6::jsonb, $25, $3, $7, $8::jsonb, $17, $18, $26, $20::jsonb, $27,
                 (SELECT name FROM contact_names WHERE tenant_id = $2 AND customer = $24), CASE WHEN ${handedOff} THEN now() END, ${handoffSkill},
                 CASE WHEN ${handedOff} THEN now() END, ${rating})`
      : `UPDATE conversations SET last_message_at = $3, reply_count = $4, state = $5, skill_state = $6::jsonb, unread = $7,
                last_message = $8::jsonb, lead_name = $17, profile_name = $18, last_customer_message = $20::jsonb,
                queued_at = CASE WHEN ${handedOff} THEN now() ELSE queued_at END,
                handoff_skill = CASE WHEN ${handedOff} THEN ${handoffSkill} ELSE handoff_skill END,
                handed_off_at = CASE WHEN ${handedOff} THEN coalesce(handed_off_at, now()) ELSE handed_off_at END,
                rating_score = coalesce(${rating}, rating_score),
                rated_at = CASE WHEN ${rating} IS NOT NULL THEN now() ELSE rated_at END
          WHERE id = $1 AND tenant_id = $2`;
    const bind = (value: unknown) => `$${params.push(value)}`;
    const others = parts.map((part, i) => `,\n       part${i} AS (${part(bind)})`).join('');
    await tx.query(
      `WITH conv AS (${conversationStatement}),
       turns AS (
         INSERT INTO conversation_messages (conversation_id, tenant_id, message_id, role, author, text, at, content, search_config)
         SELECT $1, $2, m, r, a::jsonb, t, at, k::jsonb, cfg::regconfig
           FROM unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::timestamptz[], $19::text[], $21::text[]) AS u(m, r, a, t, at, k, cfg)),
       outcomes AS (
         INSERT INTO processed_messages (inbound_message_id, tenant_id, conversation_id, reply_message_id, events, published_at)
         SELECT i, $2, $1, r, e::jsonb, NULL FROM unnest($14::text[], $15::text[], $16::text[]) AS o(i, r, e))${others}
       SELECT 1`,
      params,
    );
  }

  /** Marks outcomes whose events the broker acknowledged (of any tenants), in one statement. */
  static async markPublished(manager: EntityManager, outcomes: { tenantId: string; inboundMessageId: string }[]): Promise<void> {
    await manager.query(
      `UPDATE processed_messages p SET published_at = now()
         FROM unnest($1::text[], $2::text[]) AS m(tenant_id, inbound_message_id)
        WHERE p.tenant_id = m.tenant_id AND p.inbound_message_id = m.inbound_message_id AND p.published_at IS NULL`,
      [outcomes.map((o) => o.tenantId), outcomes.map((o) => o.inboundMessageId)],
    );
  }
}

/** An outcome row before it is written. */
export function outcomeRow(tenantId: string, conversationId: string, inboundMessageId: string, replyMessageId: string | null, events: StoredEvent[]): ProcessedMessageEntity {
  return { inboundMessageId, tenantId, conversationId, replyMessageId, events, processedAt: new Date(), publishedAt: null };
}

/** The customer's newest message once the burst's turns are in: theirs if newer than the one kept (a late redelivery is not). */
export function lastCustomerMessageAfter(kept: LastMessage | null, turns: Turn[]): LastMessage | null {
  const newest = turns.filter((t) => t.role === 'customer').reduce<Turn | null>((a, t) => (a && a.at.getTime() > t.at.getTime() ? a : t), null);
  if (!newest || (kept && Date.parse(kept.at) > newest.at.getTime())) return kept;
  return { text: newest.text, author: { type: 'customer' }, at: newest.at.toISOString() };
}

function toProcessed(p: ProcessedJson): ProcessedMessageEntity {
  return { ...p, processedAt: new Date(p.processedAt), publishedAt: p.publishedAt === null ? null : new Date(p.publishedAt) };
}

function toConversation(c: ConversationJson): ConversationEntity {
  const at = (value: string | null) => (value === null ? null : new Date(value));
  return {
    ...c,
    startedAt: new Date(c.startedAt),
    lastMessageAt: new Date(c.lastMessageAt),
    slaFirstResponseDueAt: at(c.slaFirstResponseDueAt),
    slaResolutionDueAt: at(c.slaResolutionDueAt),
    csatRequestedAt: at(c.csatRequestedAt),
  };
}
