import { Injectable } from '@nestjs/common';
import {
  CreateDealBody,
  UpdateDealBody,
  hasPrefix,
  newId,
  notFoundProblem,
  validationProblem,
  type DealFilters,
  type DealView,
  type Page,
} from '@parley/contracts';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { PipelinesService } from '../pipelines/pipelines.service';
import { dealCreated, dealStageChanged } from './deal-events';
import { toDealRecord, type DealRow } from './deals.mapper';
import { DealsStore } from './deals.store';

const MAX_PAGE = 100;

const fieldProblem = (field: string, message: string) => new ProblemException(validationProblem([{ field, message }]));

/** Tenants' deals over the API (CONTRACT.md §14); every read and write is scoped by tenant. */
@Injectable()
export class DealsService {
  constructor(
    private readonly deals: DealsStore,
    private readonly cursors: ListCursors,
    private readonly relay: OutboxRelay,
    private readonly pipelines: PipelinesService,
  ) {}

  async create(tenantId: string, rawBody: unknown): Promise<DealView> {
    const body = await validateDto(CreateDealBody, rawBody);
    const row = await this.write(async (tx) => {
      await this.assertContact(tx, tenantId, body.contact_id);
      if (body.company_id) await this.assertCompany(tx, tenantId, body.company_id);
      const pipeline = body.pipeline_id ? await this.pipelines.find(tx, tenantId, body.pipeline_id) : await this.pipelines.defaultOf(tx, tenantId);
      const stage = body.stage ?? pipeline.stages[0];
      if (!pipeline.stages.includes(stage)) throw fieldProblem('stage', `stage must be one of the pipeline's stages (${pipeline.stages.join(', ')})`);
      const created = await this.deals.insert(
        tenantId,
        {
          id: newId('del'),
          title: body.title,
          contact_id: body.contact_id,
          company_id: body.company_id ?? null,
          pipeline_id: pipeline.id,
          stage,
          amount: body.value.amount,
          currency: body.value.currency,
          owner: body.owner ?? null,
          expected_close_date: body.expected_close_date ?? null,
        },
        tx,
      );
      await enqueueEvents(tx, [dealCreated(created)]);
      return created;
    });
    return toDealRecord(row);
  }

  /** Newest first; filters narrow by pipeline, stage and contact. */
  async list(tenantId: string, limit: number, cursor: string | null, filters: DealFilters): Promise<Page<DealView>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, 'deals');
    const rows = await this.deals.list(tenantId, take + 1, cursors.after(cursor), filters);
    return { data: rows.slice(0, take).map(toDealRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  async get(tenantId: string, id: string): Promise<DealView> {
    return toDealRecord(await this.find(tenantId, id));
  }

  /** PATCH semantics: only the fields given change (null clears company, value, owner, expected close); a new stage must be one of the deal's pipeline's and is announced. */
  async update(tenantId: string, id: string, rawBody: unknown): Promise<DealView> {
    const body = await validateDto(UpdateDealBody, rawBody);
    const row = await this.write(async (tx) => {
      const current = await this.find(tenantId, id, tx);
      if (body.contact_id !== undefined) await this.assertContact(tx, tenantId, body.contact_id);
      if (body.company_id) await this.assertCompany(tx, tenantId, body.company_id);
      if (body.stage !== undefined && body.stage !== current.stage) {
        const pipeline = await this.pipelines.find(tx, tenantId, current.pipeline_id);
        if (!pipeline.stages.includes(body.stage)) throw fieldProblem('stage', `stage must be one of the pipeline's stages (${pipeline.stages.join(', ')})`);
      }
      const value = body.value === undefined ? { amount: current.amount, currency: current.currency } : (body.value ?? { amount: null, currency: null });
      const updated = await this.deals.update(
        tenantId,
        id,
        {
          title: body.title ?? current.title,
          contact_id: body.contact_id ?? current.contact_id,
          company_id: body.company_id === undefined ? current.company_id : body.company_id,
          stage: body.stage ?? current.stage,
          amount: value.amount,
          currency: value.currency,
          owner: body.owner === undefined ? current.owner : body.owner,
          expected_close_date: body.expected_close_date === undefined ? current.expected_close_date : body.expected_close_date,
        },
        tx,
      );
      if (updated.stage !== current.stage) await enqueueEvents(tx, [dealStageChanged(updated, current.stage)]);
      return updated;
    });
    return toDealRecord(row);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    const deleted = hasPrefix(id, 'del') && (await this.deals.delete(tenantId, id));
    if (!deleted) throw new ProblemException(notFoundProblem(`Deal "${id}"`));
  }

  /** Runs a write and its events in one transaction, then wakes the relay to publish them. */
  private async write<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.deals.transaction(work);
    this.relay.wake();
    return result;
  }

  /** The deal, or a 404; inside `tx` its row stays locked for the rest of the transaction. */
  private async find(tenantId: string, id: string, tx?: EntityManager): Promise<DealRow> {
    const row = hasPrefix(id, 'del') ? await this.deals.find(tenantId, id, tx ? { tx, lock: true } : {}) : null;
    if (!row) throw new ProblemException(notFoundProblem(`Deal "${id}"`));
    return row;
  }

  /** Another tenant's contact is no contact at all here (400 naming the field, like a missing one). */
  private async assertContact(tx: EntityManager, tenantId: string, contactId: string): Promise<void> {
    if (!(await this.deals.holds(tenantId, 'contacts', contactId, tx))) throw fieldProblem('contact_id', `contact_id names no contact of this tenant (${contactId})`);
  }

  private async assertCompany(tx: EntityManager, tenantId: string, companyId: string): Promise<void> {
    if (!(await this.deals.holds(tenantId, 'companies', companyId, tx))) throw fieldProblem('company_id', `company_id names no company of this tenant (${companyId})`);
  }
}
