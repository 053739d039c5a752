import { Injectable } from '@nestjs/common';
import {
  CreateCampaignBody,
  ProblemTypes,
  RECIPIENT_STATUSES,
  newId,
  notFoundProblem,
  problem,
  validationProblem,
  type CampaignAction,
  type CampaignRecipientRecord,
  type CampaignRecord,
  type Page,
  type RecipientStatus,
  type SendsInMinute,
} from '@parley/contracts';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { CampaignServiceConfig } from '../config/campaign-service.config';
import { CampaignSenderWorker } from '../sending/campaign-sender.worker';
import { CampaignStartService, InsufficientFundsRefusal } from './campaign-start.service';
import { toCampaignRecord, toRecipientRecord, type CampaignRow } from './campaigns.mapper';
import { CampaignsStore } from './campaigns.store';
import { canApply } from './lifecycle';

const MAX_PAGE = 100;
const DONE: Record<CampaignAction, string> = { start: 'started', pause: 'paused', resume: 'resumed', cancel: 'cancelled' };
const pageSize = (limit: number) => Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);

/** Campaigns of a tenant (CONTRACT.md §15): every read and write scoped by tenant; another tenant's campaign is a 404. */
@Injectable()
export class CampaignsService {
  constructor(
    private readonly campaigns: CampaignsStore,
    private readonly cursors: ListCursors,
    private readonly config: CampaignServiceConfig,
    private readonly starter: CampaignStartService,
    private readonly sender: CampaignSenderWorker,
  ) {}

  async create(tenantId: string, rawBody: unknown): Promise<CampaignRecord> {
    const body = await validateDto(CreateCampaignBody, rawBody);
    const audience = body.audience;
    if (!audience.tags?.length && !audience.contact_ids?.length && !Object.keys(audience.attributes ?? {}).length) {
      throw new ProblemException(validationProblem([{ field: 'audience', message: 'audience must name tags, contact_ids or attributes' }]));
    }
    const scheduleAt = body.schedule_at ? new Date(body.schedule_at) : null;
    const row = await this.campaigns.insert(tenantId, {
      id: newId('cpg'),
      name: body.name,
      channelId: body.channel_id ?? null,
      template: { name: body.template.name, language: body.template.language, ...(body.template.components ? { components: body.template.components } : {}) },
      audience,
      status: scheduleAt ? 'scheduled' : 'draft',
      scheduleAt,
      ratePerSecond: body.rate_per_second ?? this.config.CAMPAIGN_DEFAULT_RATE_PER_SECOND,
    });
    if (scheduleAt) this.sender.wake();
    return toCampaignRecord(row);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<CampaignRecord>> {
    const take = pageSize(limit);
    const cursors = this.cursors.of(tenantId, 'campaigns');
    const rows = await this.campaigns.list(tenantId, take + 1, cursors.after(cursor));
    return { data: rows.slice(0, take).map(toCampaignRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  async get(tenantId: string, id: string): Promise<CampaignRecord> {
    return toCampaignRecord(await this.find(tenantId, id));
  }

  /** A lifecycle move under the campaign's row lock; `start` freezes the audience in the same transaction. */
  async transition(tenantId: string, id: string, action: CampaignAction, requestId?: string): Promise<CampaignRecord> {
    const record = await this.campaigns.transaction(async (tx) => {
      const campaign = await this.find(tenantId, id, tx);
      if (!canApply(action, campaign.status)) {
        throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `A ${campaign.status} campaign cannot be ${DONE[action]}.`));
      }
      if (action === 'start') await this.starter.freeze(tx, campaign, requestId);
      else {
        const status = ({ pause: 'paused', resume: 'running', cancel: 'cancelled' } as const)[action];
        await this.campaigns.setStatus(tenantId, id, status, tx);
      }
      return toCampaignRecord((await this.campaigns.find(tenantId, id, { tx }))!);
    }).catch(async (err: unknown) => {
      // the start was rolled back, but the tenant should see what it would have cost
      if (err instanceof InsufficientFundsRefusal) {
        await this.campaigns.recordEstimate(tenantId, id, err.estimate);
      }
      throw err;
    });
    if (record.status === 'running') this.sender.wake();
    return record;
  }

  async recipients(tenantId: string, id: string, limit: number, cursor: string | null, status?: RecipientStatus): Promise<Page<CampaignRecipientRecord>> {
    if (status !== undefined && !RECIPIENT_STATUSES.includes(status)) {
      throw new ProblemException(validationProblem([{ field: 'status', message: `status must be one of: ${RECIPIENT_STATUSES.join(', ')}` }], 'The query is not valid.'));
    }
    await this.find(tenantId, id);
    const take = pageSize(limit);
    const cursors = this.cursors.of(tenantId, `campaign-recipients:${id}:${status ?? ''}`);
    const rows = await this.campaigns.recipients(tenantId, id, status ?? null, cursors.after(cursor), take + 1);
    return { data: rows.slice(0, take).map(toRecipientRecord), next_cursor: cursors.next(rows, take, (row) => row.contact_id) };
  }

  /**
   * Messages handed over per minute, oldest first: aggregated here (one row a minute) so a 100,000-recipient campaign's
   * chart costs one scan of its recipients and a few hundred rows on the wire.
   */
  async sendsPerMinute(tenantId: string, id: string): Promise<{ data: SendsInMinute[] }> {
    await this.find(tenantId, id);
    const rows = await this.campaigns.sendsPerMinute(tenantId, id);
    return { data: rows.map((r) => ({ minute: r.minute.toISOString(), count: r.count })) };
  }

  /** The campaign, or a 404; inside `tx` its row stays locked for the rest of the transaction. */
  private async find(tenantId: string, id: string, tx?: EntityManager): Promise<CampaignRow> {
    const row = await this.campaigns.find(tenantId, id, tx ? { tx, lock: true } : {});
    if (!row) throw new ProblemException(notFoundProblem(`Campaign "${id}"`));
    return row;
  }
}
