import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DealFilters } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { DEAL_COLUMNS, type DealRow } from './deals.mapper';

/** A deal's fields as written. */
export interface DealFields {
  title: string;
  contact_id: string;
  company_id: string | null;
  stage: string;
  amount: string | null;
  currency: string | null;
  owner: string | null;
  expected_close_date: string | null;
}

/**
 * Tenants' deals as stored; the tenant id is the first parameter of every method. Writes run inside the caller's unit
 * of work (`transaction`), which also queues their events, and take its `tx`.
 */
@Injectable()
export class DealsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(tenantId: string, deal: DealFields & { id: string; pipeline_id: string }, tx: EntityManager): Promise<DealRow> {
    const [created]: DealRow[] = await tx.query(
      `INSERT INTO deals (id, tenant_id, title, contact_id, company_id, pipeline_id, stage, amount, currency, owner, expected_close_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${DEAL_COLUMNS}`,
      [deal.id, tenantId, deal.title, deal.contact_id, deal.company_id, deal.pipeline_id, deal.stage, deal.amount, deal.currency, deal.owner, deal.expected_close_date],
    );
    return created;
  }

  /** A lead's deal, in the first stage of `pipeline`: null when the lead has one already (a redelivered `lead.captured`). */
  async insertForLead(tenantId: string, deal: { id: string; title: string; contact_id: string; pipeline_id: string; stage: string; lead_id: string }, tx: EntityManager): Promise<DealRow | null> {
    const [created]: DealRow[] = await tx.query(
      `INSERT INTO deals (id, tenant_id, title, contact_id, pipeline_id, stage, lead_id) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (tenant_id, lead_id) DO NOTHING RETURNING ${DEAL_COLUMNS}`,
      [deal.id, tenantId, deal.title, deal.contact_id, deal.pipeline_id, deal.stage, deal.lead_id],
    );
    return created ?? null;
  }

  /** Newest first, up to `limit` below `beforeId`, narrowed by pipeline, stage and contact. */
  list(tenantId: string, limit: number, beforeId: string | null, filters: DealFilters): Promise<DealRow[]> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (beforeId !== null) where.push(`id < ${param(beforeId)}`);
    if (filters.pipeline_id !== undefined) where.push(`pipeline_id = ${param(filters.pipeline_id)}`);
    if (filters.stage !== undefined) where.push(`stage = ${param(filters.stage)}`);
    if (filters.contact_id !== undefined) where.push(`contact_id = ${param(filters.contact_id)}`);
    return this.db.query(`SELECT ${DEAL_COLUMNS} FROM deals WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${param(limit)}`, params);
  }

  /** The deal, or null; `lock`: its row stays locked for the rest of `tx`. */
  async find(tenantId: string, id: string, { tx = this.db.manager, lock = false }: { tx?: EntityManager; lock?: boolean } = {}): Promise<DealRow | null> {
    const [row]: DealRow[] = await tx.query(`SELECT ${DEAL_COLUMNS} FROM deals WHERE tenant_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [tenantId, id]);
    return row ?? null;
  }

  async update(tenantId: string, id: string, fields: DealFields, tx: EntityManager): Promise<DealRow> {
    const [[updated]]: [DealRow[]] = await tx.query(
      `UPDATE deals SET title = $3, contact_id = $4, company_id = $5, stage = $6, amount = $7, currency = $8, owner = $9, expected_close_date = $10, updated_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING ${DEAL_COLUMNS}`,
      [tenantId, id, fields.title, fields.contact_id, fields.company_id, fields.stage, fields.amount, fields.currency, fields.owner, fields.expected_close_date],
    );
    return updated;
  }

  /** False when the tenant has no deal of that id. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    const [[deleted]]: [{ id: string }[]] = await this.db.query(`DELETE FROM deals WHERE tenant_id = $1 AND id = $2 RETURNING id`, [tenantId, id]);
    return Boolean(deleted);
  }

  /** The contact a lead was linked to (contact intake runs first), or null. */
  async leadContact(tenantId: string, leadId: string, tx: EntityManager): Promise<string | null> {
    const [link]: { contact_id: string }[] = await tx.query(`SELECT contact_id FROM contact_leads WHERE tenant_id = $1 AND lead_id = $2`, [tenantId, leadId]);
    return link?.contact_id ?? null;
  }

  /** Whether the tenant has the contact (or company), which then cannot be deleted until `tx` ends (`FOR KEY SHARE`). */
  async holds(tenantId: string, table: 'contacts' | 'companies', id: string, tx: EntityManager): Promise<boolean> {
    const [found] = await tx.query(`SELECT 1 FROM ${table} WHERE tenant_id = $1 AND id = $2 FOR KEY SHARE`, [tenantId, id]);
    return Boolean(found);
  }
}
