import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { KnowledgeGapReason, KnowledgeGapRecord, KnowledgeGapState } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { WritePart } from '../replies/burst.store';
import type { GapCandidate } from './gap-grouping';

/** A `knowledge_gaps` row with its most asked wordings, as raw SQL returns it. */
interface GapRow {
  id: string;
  agent_name: string;
  language: string;
  state: KnowledgeGapState;
  count: number;
  answer: string | null;
  created_at: Date;
  last_seen_at: Date;
  examples: string[] | null;
}

/** Where a page of gaps goes on from: the last row's time and id (newest first). */
export interface GapPosition {
  lastSeenAt: string;
  id: string;
}

/** One customer message that counts in a gap. */
export interface GapOccurrence {
  messageId: string;
  conversationId: string | null;
  /** The customer who asked (E.164 or address), said in `agent.gap_opened`. */
  customer: string | null;
  reason: KnowledgeGapReason;
  reply: string | null;
  at: Date;
}

/** Wordings shown per gap, the most asked first. */
const EXAMPLES = 10;
/** Open gaps of one agent and language a question is compared with, the most recently asked first. */
const CANDIDATES = 1000;

const COLUMNS = `g.id, g.agent_name, g.language, g.state, g.count, g.answer, g.created_at, g.last_seen_at,
  (SELECT array_agg(w.text ORDER BY w.count DESC, w.first_seen_at)
     FROM (SELECT text, count, first_seen_at FROM knowledge_gap_wordings
            WHERE gap_id = g.id ORDER BY count DESC, first_seen_at LIMIT ${EXAMPLES}) w) AS examples`;

/** A question to count in a gap: the agent's, in a language, asked by one customer message (`occurrence`). */
export interface GapAsked {
  tenantId: string;
  agent: string;
  /** The question as asked (clipped to a FAQ question's length); empty counts nowhere. */
  text: string;
  language: string;
  occurrence: GapOccurrence;
}

/** An open gap as placement sees it: grouping's view of it and how many questions it counts. */
export type GapCandidateRow = GapCandidate & { count: number };

/**
 * What placing a batch of questions changes, written in one statement (GapsStore.apply): the gaps it opened (with
 * their counts, times and centroid as the batch leaves them), the open gaps that counted more, one occurrence per
 * question, and the wordings' counts.
 */
export interface GapChanges {
  opened: { tenantId: string; id: string; agent: string; language: string; count: number; createdAt: Date; lastSeenAt: Date; centroid: Float32Array | null }[];
  grown: { tenantId: string; id: string; added: number; lastSeenAt: Date; centroid: Float32Array | null }[];
  occurrences: (GapOccurrence & { tenantId: string; gapId: string; wording: string })[];
  wordings: { tenantId: string; gapId: string; wording: string; text: string; added: number; firstSeenAt: Date }[];
}

/** One customer message's question waiting to be grouped (`knowledge_gap_pending`), as the gaps worker claims it. */
interface PendingRow {
  tenant_id: string;
  message_id: string;
  agent_name: string;
  conversation_id: string;
  question: string;
  language: string;
  customer: string | null;
  reason: KnowledgeGapReason;
  reply: string | null;
  at: Date;
}

/** A message of some tenant, as the pending queue and the occurrences are keyed. */
export interface TenantMessage {
  tenantId: string;
  messageId: string;
}

/** Knowledge gaps in SQL; every statement is scoped by tenant (and agent, where one agent's gaps are meant). */
@Injectable()
export class GapsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Serialises the grouping of one agent's questions (two instances placing near-duplicates at once open one gap). */
  async lockAgent(tx: EntityManager, tenantId: string, agent: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 36))`, [`${tenantId}:${agent}`]);
  }

  /** Which of these customer messages already count in a gap (a redelivery, a second verdict), as `tenant message` keys. */
  async counted(tx: EntityManager, messages: TenantMessage[]): Promise<Set<string>> {
    if (messages.length === 0) return new Set();
    const rows: { tenant_id: string; message_id: string }[] = await tx.query(
      `SELECT o.tenant_id, o.message_id FROM knowledge_gap_occurrences o JOIN unnest($1::text[], $2::text[]) AS m(tenant_id, message_id)
          ON o.tenant_id = m.tenant_id AND o.message_id = m.message_id`,
      [messages.map((m) => m.tenantId), messages.map((m) => m.messageId)],
    );
    return new Set(rows.map((r) => messageKey(r.tenant_id, r.message_id)));
  }

  async candidates(tx: EntityManager, tenantId: string, agent: string, language: string): Promise<GapCandidateRow[]> {
    const rows: { id: string; centroid: Buffer | null; count: number; wordings: string[] }[] = await tx.query(
      `SELECT g.id, g.centroid, g.count, (SELECT array_agg(w.wording) FROM knowledge_gap_wordings w WHERE w.gap_id = g.id) AS wordings
         FROM knowledge_gaps g
        WHERE g.tenant_id = $1 AND g.agent_name = $2 AND g.language = $3 AND g.state = 'open'
        ORDER BY g.last_seen_at DESC LIMIT ${CANDIDATES}`,
      [tenantId, agent, language],
    );
    return rows.map((r) => ({ id: r.id, centroid: r.centroid ? vectorOf(r.centroid) : null, count: r.count, wordings: r.wordings ?? [] }));
  }

  /**
   * Writes what placing a batch changed, in one statement, and deletes the pending rows it placed (`done`, those it
   * found counted already included), so a queued question counts exactly once.
   */
  async apply(tx: EntityManager, changes: GapChanges, done: TenantMessage[] = []): Promise<void> {
    const { opened, grown, occurrences: occ, wordings } = changes;
    const bytes = (v: Float32Array | null) => (v ? bytesOf(v) : null);
    await tx.query(
      `WITH opened AS (
         INSERT INTO knowledge_gaps (id, tenant_id, agent_name, language, count, created_at, last_seen_at, centroid)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::timestamptz[], $8::bytea[])),
       grown AS (
         UPDATE knowledge_gaps g SET count = g.count + u.n, last_seen_at = GREATEST(g.last_seen_at, u.at), centroid = COALESCE(u.centroid, g.centroid)
           FROM unnest($9::text[], $10::text[], $11::int[], $12::timestamptz[], $13::bytea[]) AS u(tenant_id, id, n, at, centroid)
          WHERE g.tenant_id = u.tenant_id AND g.id = u.id),
       occurrences AS (
         INSERT INTO knowledge_gap_occurrences (tenant_id, message_id, gap_id, conversation_id, wording, reason, reply, at)
         SELECT * FROM unnest($14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::timestamptz[])),
       wordings AS (
         INSERT INTO knowledge_gap_wordings (gap_id, tenant_id, wording, text, count, first_seen_at)
         SELECT * FROM unnest($22::text[], $23::text[], $24::text[], $25::text[], $26::int[], $27::timestamptz[])
         ON CONFLICT (gap_id, wording) DO UPDATE SET count = knowledge_gap_wordings.count + EXCLUDED.count),
       done AS (
         DELETE FROM knowledge_gap_pending p USING unnest($28::text[], $29::text[]) AS d(tenant_id, message_id)
          WHERE p.tenant_id = d.tenant_id AND p.message_id = d.message_id)
       SELECT 1`,
      [
        opened.map((g) => g.id),
        opened.map((g) => g.tenantId),
        opened.map((g) => g.agent),
        opened.map((g) => g.language),
        opened.map((g) => g.count),
        opened.map((g) => g.createdAt),
        opened.map((g) => g.lastSeenAt),
        opened.map((g) => bytes(g.centroid)),
        grown.map((g) => g.tenantId),
        grown.map((g) => g.id),
        grown.map((g) => g.added),
        grown.map((g) => g.lastSeenAt),
        grown.map((g) => bytes(g.centroid)),
        occ.map((o) => o.tenantId),
        occ.map((o) => o.messageId),
        occ.map((o) => o.gapId),
        occ.map((o) => o.conversationId),
        occ.map((o) => o.wording),
        occ.map((o) => o.reason),
        occ.map((o) => o.reply),
        occ.map((o) => o.at),
        wordings.map((w) => w.gapId),
        wordings.map((w) => w.tenantId),
        wordings.map((w) => w.wording),
        wordings.map((w) => w.text),
        wordings.map((w) => w.added),
        wordings.map((w) => w.firstSeenAt),
        done.map((d) => d.tenantId),
        done.map((d) => d.messageId),
      ],
    );
  }

  /**
   * Queues a question to be grouped after the reply commits, in the reply's own statement (BurstStore.write): one row
   * per customer message, a second write of it a no-op.
   */
  pending(asked: GapAsked): WritePart {
    const { tenantId, agent, text, language, occurrence: o } = asked;
    return (p) =>
      `INSERT INTO knowledge_gap_pending (tenant_id, message_id, agent_name, conversation_id, question, language, customer, reason, reply, at)
       VALUES (${p(tenantId)}, ${p(o.messageId)}, ${p(agent)}, ${p(o.conversationId)}, ${p(text)}, ${p(language)}, ${p(o.customer)}, ${p(o.reason)}, ${p(o.reply)},
               ${p(o.at)}::timestamptz)
       ON CONFLICT DO NOTHING`;
  }

  /**
   * Claims the oldest pending questions no other worker holds, in the caller's transaction, with a share lock on each
   * one's conversation: a contact's erasure (which locks their conversations first) waits for the claim's commit and
   * then removes what it counted, and a conversation being erased is skipped (its rows go with it).
   */
  async claimPending(tx: EntityManager, limit: number): Promise<GapAsked[]> {
    const rows: PendingRow[] = await tx.query(
      `SELECT p.tenant_id, p.message_id, p.agent_name, p.conversation_id, p.question, p.language, p.customer, p.reason, p.reply, p.at
         FROM knowledge_gap_pending p JOIN conversations c ON c.id = p.conversation_id
        ORDER BY p.at, p.message_id LIMIT $1
          FOR UPDATE OF p SKIP LOCKED FOR KEY SHARE OF c SKIP LOCKED`,
      [limit],
    );
    return rows.map((r) => ({
      tenantId: r.tenant_id,
      agent: r.agent_name,
      text: r.question,
      language: r.language,
      occurrence: { messageId: r.message_id, conversationId: r.conversation_id, customer: r.customer, reason: r.reason, reply: r.reply, at: r.at },
    }));
  }

  /** One agent's gaps in a state, the most recently asked first, after `after`. */
  async page(tenantId: string, agent: string, state: KnowledgeGapState, take: number, after: GapPosition | null): Promise<KnowledgeGapRecord[]> {
    const params: unknown[] = [tenantId, agent, state];
    const below = after ? `AND (g.last_seen_at, g.id) < ($${params.push(after.lastSeenAt)}::timestamptz, $${params.push(after.id)})` : '';
    const rows: GapRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM knowledge_gaps g
        WHERE g.tenant_id = $1 AND g.agent_name = $2 AND g.state = $3 ${below}
        ORDER BY g.last_seen_at DESC, g.id DESC LIMIT ${take}`,
      params,
    );
    return rows.map(toRecord);
  }

  async find(tenantId: string, agent: string, id: string): Promise<KnowledgeGapRecord | null> {
    const [row]: GapRow[] = await this.db.query(`SELECT ${COLUMNS} FROM knowledge_gaps g WHERE g.tenant_id = $1 AND g.agent_name = $2 AND g.id = $3`, [tenantId, agent, id]);
    return row ? toRecord(row) : null;
  }

  /** Moves an open gap to `closed` (with its answer) or `dismissed`; false when it is not open. */
  async settle(tenantId: string, agent: string, id: string, state: 'closed' | 'dismissed', answer: string | null): Promise<boolean> {
    const [rows]: [unknown[]] = await this.db.query(
      `UPDATE knowledge_gaps SET state = $4, answer = $5, closed_at = now()
        WHERE tenant_id = $1 AND agent_name = $2 AND id = $3 AND state = 'open' RETURNING id`,
      [tenantId, agent, id, state, answer],
    );
    return rows.length > 0;
  }
}

/** The key of a tenant's message in `counted`'s answer. */
export function messageKey(tenantId: string, messageId: string): string {
  return `${tenantId} ${messageId}`;
}

function toRecord(row: GapRow): KnowledgeGapRecord {
  const examples = row.examples ?? [];
  return {
    id: row.id,
    agent: row.agent_name,
    question: examples[0] ?? '',
    examples,
    count: row.count,
    language: row.language,
    last_seen_at: row.last_seen_at.toISOString(),
    state: row.state,
    answer: row.answer,
    created_at: row.created_at.toISOString(),
  };
}

function bytesOf(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function vectorOf(bytes: Buffer): Float32Array {
  // a copy: the driver's buffer need not be aligned for a Float32Array view
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}
