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
  email: string;
  phone: string;
  interest: string;
}

@Injectable()
export class LeadsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: ListCursors,
  ) {}

  /** Stores the conversation's lead (a correction after completion updates it, keeping its id). */
  async save(tx: EntityManager, tenantId: string, input: LeadInput): Promise<LeadRecord> {
    const rows: LeadRow[] = await tx.query(
      `INSERT INTO leads (id, tenant_id, agent_name, conversation_id, customer, name, email, phone, interest)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (conversation_id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, phone = EXCLUDED.phone,
         interest = EXCLUDED.interest, updated_at = now()
       WHERE leads.tenant_id = EXCLUDED.tenant_id
       RETURNING id, conversation_id, name, email, phone, interest, created_at`,
      [newId('led'), tenantId, input.agentName, input.conversationId, input.customer, input.name, input.email, input.phone, input.interest],
    );
    return toLeadRecord(rows[0]);
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
