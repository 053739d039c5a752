import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, type LeadRecord, type Page } from '@parley/contracts';
import { ListCursors } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { pageAfter } from '../common/pages';
import { LeadEntity } from './lead.entity';

export interface LeadInput {
  conversationId: string;
  agentName: string;
  customer: string;
  name: string;
  email?: string;
  phone?: string;
  interest?: string;
}

/** A lead as stored, and what storing it was: the first capture, or a change to the conversation's lead. */
export interface SavedLead {
  lead: LeadRecord;
  change: 'captured' | 'updated';
}

/** Leads the agent captured, one per conversation; the tenant id first. */
@Injectable()
export class LeadsStore {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: ListCursors,
  ) {}

  /**
   * Stores the conversation's lead: the first time it is captured; later, the details given are written over it
   * (keeping its id, and any detail not given again). null when nothing changed.
   */
  async save(tx: EntityManager, tenantId: string, input: LeadInput): Promise<SavedLead | null> {
    const rows: (LeadRow & { inserted: boolean })[] = await tx.query(
      `INSERT INTO leads (id, tenant_id, agent_name, conversation_id, customer, name, email, phone, interest)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (conversation_id) DO UPDATE SET name = EXCLUDED.name, email = COALESCE(EXCLUDED.email, leads.email),
         phone = COALESCE(EXCLUDED.phone, leads.phone), interest = COALESCE(EXCLUDED.interest, leads.interest), updated_at = now()
       WHERE leads.tenant_id = EXCLUDED.tenant_id
         AND (leads.name, leads.email, leads.phone, leads.interest) IS DISTINCT FROM
             (EXCLUDED.name, COALESCE(EXCLUDED.email, leads.email), COALESCE(EXCLUDED.phone, leads.phone), COALESCE(EXCLUDED.interest, leads.interest))
       RETURNING id, conversation_id, name, email, phone, interest, created_at, (xmax = 0) AS inserted`,
      [
        newId('led'),
        tenantId,
        input.agentName,
        input.conversationId,
        input.customer,
        input.name,
        input.email ?? null,
        input.phone ?? null,
        input.interest ?? null,
      ],
    );
    if (rows.length === 0) return null;
    return { lead: toLeadRecord(rows[0]), change: rows[0].inserted ? 'captured' : 'updated' };
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<LeadRecord>> {
    const qb = this.db.getRepository(LeadEntity).createQueryBuilder('l').where('l.tenant_id = :tenantId', { tenantId });
    const page = await pageAfter(qb, 'l', limit, cursor, this.cursors.of(tenantId, 'leads'));
    return { data: page.rows.map(leadRecordOf), next_cursor: page.nextCursor };
  }
}

interface LeadRow {
  id: string;
  conversation_id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  interest: string | null;
  created_at: Date;
}

function toLeadRecord(row: LeadRow): LeadRecord {
  const { id, conversation_id, name, email, phone, interest } = row;
  return { id, name, email, phone, interest, conversation_id, created_at: new Date(row.created_at).toISOString() };
}

function leadRecordOf(e: LeadEntity): LeadRecord {
  return { id: e.id, name: e.name, email: e.email, phone: e.phone, interest: e.interest, conversation_id: e.conversationId, created_at: e.createdAt.toISOString() };
}
