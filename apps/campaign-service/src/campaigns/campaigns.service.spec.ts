import { ListCursors, ProblemException } from '@parley/service-kit';
import { withRollback } from '@parley/testing';
import type { EntityManager } from 'typeorm';
import type { CampaignServiceConfig } from '../config/campaign-service.config';
import type { CampaignSenderWorker } from '../sending/campaign-sender.worker';
import { InsufficientFundsRefusal, type CampaignStartService } from './campaign-start.service';
import type { CampaignRow } from './campaigns.mapper';
import { CampaignsService } from './campaigns.service';
import type { CampaignsStore, NewCampaign } from './campaigns.store';

/** CampaignsStore's contract in memory for what CampaignsService asks of it (its SQL runs in the integration and e2e specs). */
class InMemoryCampaigns implements Pick<CampaignsStore, 'transaction' | 'insert' | 'list' | 'find' | 'setStatus' | 'recordEstimate'> {
  readonly rows = new Map<string, CampaignRow>();
  private readonly tx = {} as EntityManager;

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return withRollback(this.rows, () => work(this.tx));
  }

  async insert(tenantId: string, c: NewCampaign): Promise<CampaignRow> {
    const row: CampaignRow = {
      ...{ queued: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped_opted_out: 0, audience_count: 0 },
      id: c.id,
      tenant_id: tenantId,
      name: c.name,
      channel_id: c.channelId,
      template: c.template,
      audience: c.audience,
      status: c.status,
      schedule_at: c.scheduleAt,
      rate_per_second: c.ratePerSecond,
      status_reason: null,
      estimate: null,
      created_at: new Date(),
      started_at: null,
      completed_at: null,
    };
    this.rows.set(row.id, row);
    return { ...row };
  }

  async list(tenantId: string, limit: number, beforeId: string | null): Promise<CampaignRow[]> {
    return [...this.rows.values()].filter((r) => r.tenant_id === tenantId && (beforeId === null || r.id < beforeId)).sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, limit);
  }

  async find(tenantId: string, id: string): Promise<CampaignRow | null> {
    const row = this.rows.get(id);
    return row && row.tenant_id === tenantId ? { ...row } : null;
  }

  async setStatus(tenantId: string, id: string, status: 'paused' | 'running' | 'cancelled'): Promise<void> {
    const row = this.rows.get(id);
    if (row?.tenant_id === tenantId) Object.assign(row, { status, status_reason: null });
  }

  async recordEstimate(tenantId: string, id: string, estimate: CampaignRow['estimate']): Promise<void> {
    const row = this.rows.get(id);
    if (row?.tenant_id === tenantId) row.estimate = estimate;
  }
}

function setup(freeze: (campaigns: InMemoryCampaigns, row: CampaignRow) => Promise<void>) {
  const store = new InMemoryCampaigns();
  const starter = { freeze: (_tx: EntityManager, row: CampaignRow) => freeze(store, row) } as unknown as CampaignStartService;
  const sender = { wake: jest.fn() } as unknown as CampaignSenderWorker & { wake: jest.Mock };
  const config = { CAMPAIGN_DEFAULT_RATE_PER_SECOND: 20 } as CampaignServiceConfig;
  const campaigns = new CampaignsService(store as unknown as CampaignsStore, new ListCursors('test-secret'), config, starter, sender);
  return { store, sender, campaigns };
}

const startsRunning = async (store: InMemoryCampaigns, row: CampaignRow) => {
  Object.assign(store.rows.get(row.id)!, { status: 'running', started_at: new Date() });
};
const body = { name: 'Spring sale', template: { name: 'spring_sale', language: 'en' }, audience: { tags: ['vip'] } };
const problemOf = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  return err instanceof ProblemException ? err.problem : err;
};

describe('CampaignsService', () => {
  it('creates a draft at the default pace, or a scheduled campaign that wakes the sender', async () => {
    const { campaigns, sender } = setup(startsRunning);
    const draft = await campaigns.create('ten_a', body);
    expect(draft).toMatchObject({ status: 'draft', rate_per_second: 20 });
    expect(sender.wake).not.toHaveBeenCalled();
    const scheduled = await campaigns.create('ten_a', { ...body, schedule_at: new Date(Date.now() + 3600_000).toISOString() });
    expect(scheduled.status).toBe('scheduled');
    expect(sender.wake).toHaveBeenCalledTimes(1);
  });

  it('refuses an audience that names nobody, naming the field', async () => {
    const { campaigns } = setup(startsRunning);
    expect(await problemOf(campaigns.create('ten_a', { ...body, audience: {} }))).toMatchObject({ status: 400, errors: [{ field: 'audience' }] });
  });

  it('moves through its lifecycle and refuses a move its status does not allow with 409', async () => {
    const { campaigns, sender } = setup(startsRunning);
    const { id } = await campaigns.create('ten_a', body);
    expect(await problemOf(campaigns.transition('ten_a', id, 'pause'))).toMatchObject({ status: 409, detail: 'A draft campaign cannot be paused.' });
    expect((await campaigns.transition('ten_a', id, 'start')).status).toBe('running');
    expect(sender.wake).toHaveBeenCalled();
    expect((await campaigns.transition('ten_a', id, 'pause')).status).toBe('paused');
    expect((await campaigns.transition('ten_a', id, 'resume')).status).toBe('running');
    expect((await campaigns.transition('ten_a', id, 'cancel')).status).toBe('cancelled');
    expect(await problemOf(campaigns.transition('ten_a', id, 'resume'))).toMatchObject({ status: 409 });
  });

  it('a start the wallet cannot pay for is refused with 402, the campaign left a draft with the estimate it would have cost', async () => {
    const { campaigns, store } = setup(async (s, row) => {
      s.rows.get(row.id)!.status = 'running'; // written, then rolled back with the refusal
      throw new InsufficientFundsRefusal({ amount: '12.50', currency: 'USD' });
    });
    const { id } = await campaigns.create('ten_a', body);
    expect(await problemOf(campaigns.transition('ten_a', id, 'start'))).toMatchObject({ status: 402 });
    expect(store.rows.get(id)).toMatchObject({ status: 'draft', estimate: { amount: '12.50', currency: 'USD' } });
  });

  it("answers 404 for another tenant's campaign and lists only the tenant's own", async () => {
    const { campaigns } = setup(startsRunning);
    const { id } = await campaigns.create('ten_a', body);
    await campaigns.create('ten_b', body);
    expect(await problemOf(campaigns.get('ten_b', id))).toMatchObject({ status: 404 });
    expect(await problemOf(campaigns.transition('ten_b', id, 'start'))).toMatchObject({ status: 404 });
    expect((await campaigns.list('ten_a', 10, null)).data.map((c) => c.id)).toEqual([id]);
  });

  it('refuses an unknown recipient status filter with 400 naming `status`', async () => {
    const { campaigns } = setup(startsRunning);
    const { id } = await campaigns.create('ten_a', body);
    expect(await problemOf(campaigns.recipients('ten_a', id, 10, null, 'bounced' as never))).toMatchObject({ status: 400, errors: [{ field: 'status' }] });
  });
});
