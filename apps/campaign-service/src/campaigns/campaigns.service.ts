import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
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
import { DataSource, type EntityManager } from 'typeorm';
import { CampaignServiceConfig } from '../config/campaign-service.config';
import { CampaignSenderWorker } from '../sending/campaign-sender.worker';
import { CampaignStartService, InsufficientFundsRefusal } from './campaign-start.service';
import { CAMPAIGN_COLUMNS, toCampaignRecord, toRecipientRecord, type CampaignRow, type RecipientRow } from './campaigns.mapper';
import { canApply } from './lifecycle';

const MAX_PAGE = 100;
const DONE: Record<CampaignAction, string> = { start: 'started', pause: 'paused', resume: 'resumed', cancel: 'cancelled' };
const pageSize = (limit: number) => Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);

/** Campaigns of a tenant (CONTRACT.md §15): every read and write scoped by tenant; another tenant's campaign is a 404. */
@Injectable()
export class CampaignsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
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
    const [row] = (await this.db.query(
      `INSERT INTO campaigns (id, tenant_id, name, channel_id, template, audience, status, schedule_at, rate_per_second)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9) RETURNING ${CAMPAIGN_COLUMNS}`,
      [
        newId('cpg'),
        tenantId,
        body.name,
        body.channel_id ?? null,
        JSON.stringify({ name: body.template.name, language: body.template.language, ...(body.template.components ? { components: body.template.components } : {}) }),
        JSON.stringify(audience),
        scheduleAt ? 'scheduled' : 'draft',
        scheduleAt,
        body.rate_per_second ?? this.config.CAMPAIGN_DEFAULT_RATE_PER_SECOND,
      ],
    )) as CampaignRow[];
    if (scheduleAt) this.sender.wake();
    return toCampaignRecord(row);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<CampaignRecord>> {
    const take = pageSize(limit);
    const cursors = this.cursors.of(tenantId, 'campaigns');
    const after = cursors.after(cursor);
    const rows = (await this.db.query(
      `SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE tenant_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT ${take + 1}`,
      [tenantId, after],
    )) as CampaignRow[];
    return { data: rows.slice(0, take).map(toCampaignRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  async get(tenantId: string, id: string): Promise<CampaignRecord> {
    return toCampaignRecord(await this.find(this.db.manager, tenantId, id, false));
  }

  /** A lifecycle move under the campaign's row lock; `start` freezes the audience in the same transaction. */
  async transition(tenantId: string, id: string, action: CampaignAction, requestId?: string): Promise<CampaignRecord> {
    const record = await this.db.transaction(async (tx) => {
      const campaign = await this.find(tx, tenantId, id, true);
      if (!canApply(action, campaign.status)) {
        throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `A ${campaign.status} campaign cannot be ${DONE[action]}.`));
      }
      if (action === 'start') await this.starter.freeze(tx, campaign, requestId);
      else {
        const status = { pause: 'paused', resume: 'running', cancel: 'cancelled' }[action];
        await tx.query(
          `UPDATE campaigns SET status = $2, status_reason = NULL, next_send_at = CASE WHEN $2 = 'running' THEN now() ELSE next_send_at END, updated_at = now() WHERE id = $1`,
          [id, status],
        );
      }
      return toCampaignRecord(await this.find(tx, tenantId, id, false));
    }).catch(async (err: unknown) => {
      // the start was rolled back, but the tenant should see what it would have cost
      if (err instanceof InsufficientFundsRefusal) {
        await this.db.query(`UPDATE campaigns SET estimate = $3::jsonb, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [id, tenantId, JSON.stringify(err.estimate)]);
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
    await this.find(this.db.manager, tenantId, id, false);
    const take = pageSize(limit);
    const cursors = this.cursors.of(tenantId, `campaign-recipients:${id}:${status ?? ''}`);
    const after = cursors.after(cursor);
    const rows = (await this.db.query(
      `SELECT contact_id, phone, message_id, status, error, replied_at, updated_at FROM campaign_recipients
       WHERE campaign_id = $1 AND tenant_id = $2 AND ($3::text IS NULL OR status = $3) AND ($4::text IS NULL OR contact_id > $4)
       ORDER BY contact_id LIMIT ${take + 1}`,
      [id, tenantId, status ?? null, after],
    )) as RecipientRow[];
    return { data: rows.slice(0, take).map(toRecipientRecord), next_cursor: cursors.next(rows, take, (row) => row.contact_id) };
  }

  /**
   * Messages handed over per minute, oldest first: aggregated here (one row a minute) so a 100,000-recipient campaign's
   * chart costs one scan of its recipients and a few hundred rows on the wire.
   */
  async sendsPerMinute(tenantId: string, id: string): Promise<{ data: SendsInMinute[] }> {
    await this.find(this.db.manager, tenantId, id, false);
    const rows = (await this.db.query(
      `SELECT date_trunc('minute', queued_at) AS minute, count(*)::int AS count FROM campaign_recipients
       WHERE campaign_id = $1 AND tenant_id = $2 AND queued_at IS NOT NULL
       GROUP BY 1 ORDER BY 1`,
      [id, tenantId],
    )) as { minute: Date; count: number }[];
    return { data: rows.map((r) => ({ minute: r.minute.toISOString(), count: r.count })) };
  }

  private async find(tx: EntityManager, tenantId: string, id: string, lock: boolean): Promise<CampaignRow> {
    const [row] = (await tx.query(`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE id = $1 AND tenant_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, tenantId])) as CampaignRow[];
    if (!row) throw new ProblemException(notFoundProblem(`Campaign "${id}"`));
    return row;
  }
}
