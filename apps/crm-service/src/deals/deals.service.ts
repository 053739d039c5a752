import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  CreateDealBody,
  UpdateDealBody,
  hasPrefix,
  newId,
  notFoundProblem,
  validationProblem,
  type DealFilters,
  type DealRecord,
  type Page,
} from '@parley/contracts';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { PipelinesService } from '../pipelines/pipelines.service';
import { dealCreated, dealStageChanged } from './deal-events';
import { DEAL_COLUMNS, toDealRecord, type DealRow } from './deals.mapper';

const MAX_PAGE = 100;

const fieldProblem = (field: string, message: string) => new ProblemException(validationProblem([{ field, message }]));

/** Tenants' deals over the API (CONTRACT.md §14); every read and write is scoped by tenant. */
@Injectable()
export class DealsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: ListCursors,
    private readonly relay: OutboxRelay,
    private readonly pipelines: PipelinesService,
  ) {}

  async create(tenantId: string, rawBody: unknown): Promise<DealRecord> {
    const body = await validateDto(CreateDealBody, rawBody);
    const row = await this.write(async (tx) => {
      await this.assertContact(tx, tenantId, body.contact_id);
      if (body.company_id) await this.assertCompany(tx, tenantId, body.company_id);
      const pipeline = body.pipeline_id ? await this.pipelines.find(tx, tenantId, body.pipeline_id) : await this.pipelines.defaultOf(tx, tenantId);
      const stage = body.stage ?? pipeline.stages[0];
      if (!pipeline.stages.includes(stage)) throw fieldProblem('stage', `stage must be one of the pipeline's stages (${pipeline.stages.join(', ')})`);
      const [created]: DealRow[] = await tx.query(
        `INSERT INTO deals (id, tenant_id, title, contact_id, company_id, pipeline_id, stage, amount, currency, owner, expected_close_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${DEAL_COLUMNS}`,
        [
          newId('del'),
          tenantId,
          body.title,
          body.contact_id,
          body.company_id ?? null,
          pipeline.id,
          stage,
          body.value.amount,
          body.value.currency,
          body.owner ?? null,
          body.expected_close_date ?? null,
        ],
      );
      await enqueueEvents(tx, [dealCreated(created)]);
      return created;
    });
    return toDealRecord(row);
  }

  /** Newest first; filters narrow by pipeline, stage and contact. */
  async list(tenantId: string, limit: number, cursor: string | null, filters: DealFilters): Promise<Page<DealRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, 'deals');
    const after = cursors.after(cursor);
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (after !== null) where.push(`id < ${param(after)}`);
    if (filters.pipeline_id !== undefined) where.push(`pipeline_id = ${param(filters.pipeline_id)}`);
    if (filters.stage !== undefined) where.push(`stage = ${param(filters.stage)}`);
    if (filters.contact_id !== undefined) where.push(`contact_id = ${param(filters.contact_id)}`);
    const rows: DealRow[] = await this.db.query(`SELECT ${DEAL_COLUMNS} FROM deals WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${take + 1}`, params);
    return { data: rows.slice(0, take).map(toDealRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  async get(tenantId: string, id: string): Promise<DealRecord> {
    return toDealRecord(await this.find(this.db.manager, tenantId, id));
  }

  /** PATCH semantics: only the fields given change (null clears company, value, owner, expected close); a new stage must be one of the deal's pipeline's and is announced. */
  async update(tenantId: string, id: string, rawBody: unknown): Promise<DealRecord> {
    const body = await validateDto(UpdateDealBody, rawBody);
    const row = await this.write(async (tx) => {
      const current = await this.find(tx, tenantId, id, true);
      if (body.contact_id !== undefined) await this.assertContact(tx, tenantId, body.contact_id);
      if (body.company_id) await this.assertCompany(tx, tenantId, body.company_id);
      if (body.stage !== undefined && body.stage !== current.stage) {
        const pipeline = await this.pipelines.find(tx, tenantId, current.pipeline_id);
        if (!pipeline.stages.includes(body.stage)) throw fieldProblem('stage', `stage must be one of the pipeline's stages (${pipeline.stages.join(', ')})`);
      }
      const value = body.value === undefined ? { amount: current.amount, currency: current.currency } : (body.value ?? { amount: null, currency: null });
      const [[updated]]: [DealRow[]] = await tx.query(
        `UPDATE deals SET title = $3, contact_id = $4, company_id = $5, stage = $6, amount = $7, currency = $8, owner = $9, expected_close_date = $10, updated_at = now()
          WHERE tenant_id = $1 AND id = $2 RETURNING ${DEAL_COLUMNS}`,
        [
          tenantId,
          id,
          body.title ?? current.title,
          body.contact_id ?? current.contact_id,
          body.company_id === undefined ? current.company_id : body.company_id,
          body.stage ?? current.stage,
          value.amount,
          value.currency,
          body.owner === undefined ? current.owner : body.owner,
          body.expected_close_date === undefined ? current.expected_close_date : body.expected_close_date,
        ],
      );
      if (updated.stage !== current.stage) await enqueueEvents(tx, [dealStageChanged(updated, current.stage)]);
      return updated;
    });
    return toDealRecord(row);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    const [[deleted]]: [DealRow[]] = hasPrefix(id, 'del') ? await this.db.query(`DELETE FROM deals WHERE tenant_id = $1 AND id = $2 RETURNING id`, [tenantId, id]) : [[]];
    if (!deleted) throw new ProblemException(notFoundProblem(`Deal "${id}"`));
  }

  /** Runs a write and its events in one transaction, then wakes the relay to publish them. */
  private async write<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(work);
    this.relay.wake();
    return result;
  }

  private async find(manager: EntityManager, tenantId: string, id: string, forUpdate = false): Promise<DealRow> {
    const [row]: DealRow[] = hasPrefix(id, 'del')
      ? await manager.query(`SELECT ${DEAL_COLUMNS} FROM deals WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [tenantId, id])
      : [];
    if (!row) throw new ProblemException(notFoundProblem(`Deal "${id}"`));
    return row;
  }

  /** Another tenant's contact is no contact at all here (400 naming the field, like a missing one). */
  private async assertContact(manager: EntityManager, tenantId: string, contactId: string): Promise<void> {
    const [found] = await manager.query(`SELECT 1 FROM contacts WHERE tenant_id = $1 AND id = $2 FOR KEY SHARE`, [tenantId, contactId]);
    if (!found) throw fieldProblem('contact_id', `contact_id names no contact of this tenant (${contactId})`);
  }

  private async assertCompany(manager: EntityManager, tenantId: string, companyId: string): Promise<void> {
    const [found] = await manager.query(`SELECT 1 FROM companies WHERE tenant_id = $1 AND id = $2 FOR KEY SHARE`, [tenantId, companyId]);
    if (!found) throw fieldProblem('company_id', `company_id names no company of this tenant (${companyId})`);
  }
}
