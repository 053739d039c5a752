import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { KnowledgeGapReason, KnowledgeGapRecord, KnowledgeGapState } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
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

/** Knowledge gaps in SQL; every statement is scoped by tenant (and agent, where one agent's gaps are meant). */
@Injectable()
export class GapsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Serialises the grouping of one agent's questions (two instances placing near-duplicates at once open one gap). */
  async lockAgent(tx: EntityManager, tenantId: string, agent: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 36))`, [`${tenantId}:${agent}`]);
  }

  /** Whether this customer message already counts in a gap (a redelivery, a second verdict). */
  async counted(tx: EntityManager, tenantId: string, messageId: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(`SELECT 1 FROM knowledge_gap_occurrences WHERE tenant_id = $1 AND message_id = $2`, [tenantId, messageId]);
    return rows.length > 0;
  }

  async candidates(tx: EntityManager, tenantId: string, agent: string, language: string): Promise<(GapCandidate & { count: number })[]> {
    const rows: { id: string; centroid: Buffer | null; count: number; wordings: string[] }[] = await tx.query(
      `SELECT g.id, g.centroid, g.count, (SELECT array_agg(w.wording) FROM knowledge_gap_wordings w WHERE w.gap_id = g.id) AS wordings
         FROM knowledge_gaps g
        WHERE g.tenant_id = $1 AND g.agent_name = $2 AND g.language = $3 AND g.state = 'open'
        ORDER BY g.last_seen_at DESC LIMIT ${CANDIDATES}`,
      [tenantId, agent, language],
    );
    return rows.map((r) => ({ id: r.id, centroid: r.centroid ? vectorOf(r.centroid) : null, count: r.count, wordings: r.wordings ?? [] }));
  }

  async insertGap(tx: EntityManager, tenantId: string, gap: { id: string; agent: string; language: string; at: Date }): Promise<void> {
    await tx.query(`INSERT INTO knowledge_gaps (id, tenant_id, agent_name, language, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $5, $5)`, [
      gap.id,
      tenantId,
      gap.agent,
      gap.language,
      gap.at,
    ]);
  }

  /** Counts one more question in a gap: its occurrence, its wording, the gap's count, time and centroid. */
  async addQuestion(
    tx: EntityManager,
    tenantId: string,
    gapId: string,
    question: { wording: string; text: string; centroid: Float32Array | null },
    occurrence: GapOccurrence,
  ): Promise<void> {
    const { messageId, conversationId, reason, reply, at } = occurrence;
    await tx.query(
      `INSERT INTO knowledge_gap_occurrences (tenant_id, message_id, gap_id, conversation_id, wording, reason, reply, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [tenantId, messageId, gapId, conversationId, question.wording, reason, reply, at],
    );
    await tx.query(
      `INSERT INTO knowledge_gap_wordings (gap_id, tenant_id, wording, text, first_seen_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (gap_id, wording) DO UPDATE SET count = knowledge_gap_wordings.count + 1`,
      [gapId, tenantId, question.wording, question.text, at],
    );
    await tx.query(
      `UPDATE knowledge_gaps SET count = count + 1, last_seen_at = GREATEST(last_seen_at, $3), centroid = COALESCE($4, centroid)
        WHERE tenant_id = $1 AND id = $2`,
      [tenantId, gapId, at, question.centroid ? bytesOf(question.centroid) : null],
    );
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

  async find(tenantId: string, agent: string, id: string, tx: EntityManager = this.db.manager): Promise<KnowledgeGapRecord | null> {
    const [row]: GapRow[] = await tx.query(`SELECT ${COLUMNS} FROM knowledge_gaps g WHERE g.tenant_id = $1 AND g.agent_name = $2 AND g.id = $3`, [tenantId, agent, id]);
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
