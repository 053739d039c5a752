import { Logger } from '@nestjs/common';
import { ProblemTypes, problem, type CreateTemplateRequest, type TemplateContent } from '@parley/contracts';
import type { EventPublisher } from '@parley/kafka';
import { ListCursors, ProblemException } from '@parley/service-kit';
import type { ChannelEntity } from '../channels/channel.entity';
import type { ChannelsService, SenderChoice } from '../channels/channels.service';
import type { OptOutsStore } from '../opt-outs/opt-outs.store';
import type { GraphTemplatesClient } from './graph-templates.client';
import { TemplatesService, type TemplateStatusUpdate } from './templates.service';
import type { NewTemplate, TemplateReview, TemplateRow, TemplatesStore } from './templates.store';

/** TemplatesStore's contract in memory (its SQL runs in the integration and e2e specs). */
class InMemoryTemplates implements Pick<TemplatesStore, 'insertPending' | 'setProviderTemplateId' | 'list' | 'find' | 'delete' | 'applyReview' | 'named'> {
  readonly rows = new Map<string, TemplateRow>();

  /** `wabaOf`: each channel's WhatsApp Business Account, as the channels table has it. */
  constructor(private readonly wabaOf: Map<string, string>) {}

  async insertPending(tenantId: string, t: NewTemplate): Promise<boolean> {
    // the unique (channel, name, language)
    if ([...this.rows.values()].some((r) => r.channel_id === t.channel_id && r.name === t.name && r.language === t.language)) return false;
    const now = new Date();
    this.rows.set(t.id, { ...t, tenant_id: tenantId, status: 'PENDING', reason: null, provider_template_id: null, created_at: now, updated_at: now });
    return true;
  }

  async setProviderTemplateId(tenantId: string, id: string, providerTemplateId: string): Promise<void> {
    const row = this.rows.get(id);
    if (row?.tenant_id === tenantId) row.provider_template_id = providerTemplateId;
  }

  async list(tenantId: string, limit: number, beforeId: string | null): Promise<TemplateRow[]> {
    return [...this.rows.values()]
      .filter((r) => r.tenant_id === tenantId && (beforeId === null || r.id < beforeId))
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }

  async find(tenantId: string, id: string): Promise<TemplateRow | null> {
    const row = this.rows.get(id);
    return row?.tenant_id === tenantId ? { ...row } : null;
  }

  async delete(tenantId: string, id: string): Promise<void> {
    if (this.rows.get(id)?.tenant_id === tenantId) this.rows.delete(id);
  }

  async applyReview(review: TemplateReview): Promise<TemplateRow[]> {
    const changed: TemplateRow[] = [];
    for (const row of this.rows.values()) {
      const named = row.provider_template_id === review.providerTemplateId || (row.name === review.name && row.language === review.language);
      if (this.wabaOf.get(row.channel_id) !== review.wabaId || !named || (row.status === review.status && row.reason === review.reason)) continue;
      Object.assign(row, { status: review.status, reason: review.reason, updated_at: new Date() });
      changed.push({ ...row });
    }
    return changed;
  }

  async named(channelId: string, name: string): Promise<TemplateRow[]> {
    return [...this.rows.values()].filter((r) => r.channel_id === channelId && r.name === name).map((r) => ({ ...r }));
  }

  /** A template as it stands after review (what a test starts from). */
  seed(row: Pick<TemplateRow, 'id' | 'tenant_id' | 'channel_id' | 'name' | 'language' | 'category' | 'components' | 'status'>): void {
    const now = new Date();
    this.rows.set(row.id, { reason: null, provider_template_id: `pt_${row.id}`, created_at: now, updated_at: now, ...row });
  }
}

const channel = (c: Partial<ChannelEntity> & Pick<ChannelEntity, 'id' | 'tenantId' | 'phoneNumber'>): ChannelEntity =>
  ({ kind: 'whatsapp', provider: 'meta', wabaId: `waba_${c.id}`, phoneNumberId: `pn_${c.id}`, isDefault: false, status: 'connected', ...c }) as ChannelEntity;

const CHANNELS = [
  channel({ id: 'chn_a1', tenantId: 'ten_a', phoneNumber: '+14155550101', isDefault: true }),
  channel({ id: 'chn_a2', tenantId: 'ten_a', phoneNumber: '+14155550102' }),
  channel({ id: 'chn_d', tenantId: 'ten_d', phoneNumber: '+14155550104', provider: '360dialog', isDefault: true }),
  channel({ id: 'chn_b', tenantId: 'ten_b', phoneNumber: '+14155550103', isDefault: true }),
];

function setup(optedOut: string[] = []) {
  const templates = new InMemoryTemplates(new Map(CHANNELS.map((c) => [c.id, c.wabaId ?? c.phoneNumberId!])));
  const channels = {
    // the tenant's connected WhatsApp channel: the one named, else the number `from`, else the default
    findWithToken: async (tenantId: string, choice: SenderChoice) => {
      const found = CHANNELS.find((c) => c.tenantId === tenantId && (choice.channelId ? c.id === choice.channelId : choice.from ? c.phoneNumber === choice.from : c.isDefault));
      return found ? { channel: found, accessToken: 'token' } : null;
    },
  };
  let ids = 0;
  const graph = { create: jest.fn(async () => ({ id: `pt_${++ids}`, status: 'PENDING' })), delete: jest.fn(async () => undefined) };
  const optOuts = { isOptedOut: async (tenantId: string, customer: string) => optedOut.includes(`${tenantId} ${customer}`) };
  const publisher = { publishEvent: jest.fn(async () => undefined) };
  const service = new TemplatesService(
    templates as unknown as TemplatesStore,
    channels as unknown as ChannelsService,
    graph as unknown as GraphTemplatesClient,
    optOuts as unknown as OptOutsStore,
    publisher as unknown as EventPublisher,
    new ListCursors('test-secret'),
  );
  return { service, templates, graph, publisher };
}

const body: CreateTemplateRequest = { name: 'order_ready', language: 'en', category: 'UTILITY', components: [{ type: 'BODY', text: 'Your order is ready.' }] };
const problemOf = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  return err instanceof ProblemException ? err.problem : err;
};
const send = (name: string, code = 'en', components?: unknown[]): TemplateContent => ({ name, language: { code }, ...(components ? { components } : {}) });
const review = (u: Partial<TemplateStatusUpdate>): TemplateStatusUpdate => ({ wabaId: 'waba_chn_a1', providerTemplateId: null, name: null, language: null, event: 'APPROVED', reason: null, ...u });

describe('TemplatesService', () => {
  it("stores a new template PENDING with the provider's id, and refuses a second of that name and language on the channel with 409 before the provider sees it", async () => {
    const { service, templates, graph } = setup();
    const created = await service.create('ten_a', body);
    expect(created).toMatchObject({ channel_id: 'chn_a1', name: 'order_ready', language: 'en', status: 'PENDING', reason: null });
    expect(templates.rows.get(created.id)?.provider_template_id).toBe('pt_1');

    expect(await problemOf(service.create('ten_a', body))).toMatchObject({ status: 409, type: ProblemTypes.conflict });
    expect(graph.create).toHaveBeenCalledTimes(1);
    // another language, or the same on another channel, is another template
    await service.create('ten_a', { ...body, language: 'pt_BR' });
    await service.create('ten_a', { ...body, channel_id: 'chn_a2' });
    expect(templates.rows.size).toBe(3);
  });

  it('keeps nothing of a template the provider refuses', async () => {
    const { service, templates, graph } = setup();
    const refusal = new ProblemException(problem(400, ProblemTypes.validation, 'Bad Request', 'Invalid parameter'));
    graph.create.mockRejectedValueOnce(refusal);
    await expect(service.create('ten_a', body)).rejects.toBe(refusal);
    expect(templates.rows.size).toBe(0);
    // so the name is free to submit again
    expect((await service.create('ten_a', body)).status).toBe('PENDING');
  });

  it('refuses a channel that holds no templates (none of the tenant, or a 360dialog number) with 400 naming channel_id', async () => {
    const { service, graph } = setup();
    expect(await problemOf(service.create('ten_a', { ...body, channel_id: 'chn_b' }))).toMatchObject({ status: 400, errors: [{ field: 'channel_id' }] });
    expect(await problemOf(service.create('ten_none', body))).toMatchObject({ status: 400, errors: [{ field: 'channel_id' }] });
    expect(await problemOf(service.create('ten_d', body))).toMatchObject({ status: 400, errors: [{ field: 'channel_id' }] });
    expect(graph.create).not.toHaveBeenCalled();
  });

  it("answers 404 for another tenant's template on get and remove, which leaves it and the provider alone", async () => {
    const { service, templates, graph } = setup();
    const { id } = await service.create('ten_a', body);
    expect(await problemOf(service.get('ten_b', id))).toMatchObject({ status: 404 });
    expect(await problemOf(service.remove('ten_b', id))).toMatchObject({ status: 404 });
    expect(templates.rows.has(id)).toBe(true);
    expect(graph.delete).not.toHaveBeenCalled();
    expect((await service.list('ten_b', 20, null)).data).toEqual([]);

    await service.remove('ten_a', id);
    expect(graph.delete).toHaveBeenCalledWith(expect.objectContaining({ wabaId: 'waba_chn_a1' }), 'pt_1', 'order_ready');
    expect(templates.rows.has(id)).toBe(false);
  });

  it('sends only an APPROVED template of the sending channel in the language asked, naming the field that is wrong', async () => {
    const { service, templates } = setup();
    templates.seed({ id: 'tpl_1', tenant_id: 'ten_a', channel_id: 'chn_a1', name: 'order_ready', language: 'en', category: 'UTILITY', components: body.components, status: 'APPROVED' });
    templates.seed({ id: 'tpl_2', tenant_id: 'ten_a', channel_id: 'chn_a1', name: 'spring_sale', language: 'en', category: 'MARKETING', components: body.components, status: 'PENDING' });

    expect(await service.checkSend('ten_a', '+15550001111', null, send('order_ready'))).toEqual({ ok: true });
    expect(await problemOf(service.checkSend('ten_a', '+15550001111', null, send('unknown')))).toMatchObject({ status: 400, errors: [{ field: 'template.name' }] });
    expect(await problemOf(service.checkSend('ten_a', '+15550001111', null, send('order_ready', 'de')))).toMatchObject({
      status: 400,
      errors: [{ field: 'template.language.code', message: expect.stringContaining('(it has: en)') }],
    });
    expect(await problemOf(service.checkSend('ten_a', '+15550001111', null, send('spring_sale')))).toMatchObject({
      status: 400,
      errors: [{ field: 'template.name', message: expect.stringContaining('is PENDING, not APPROVED') }],
    });
    // a template of the tenant's other number is not this number's
    expect(await problemOf(service.checkSend('ten_a', '+15550001111', '+14155550102', send('order_ready')))).toMatchObject({ status: 400, errors: [{ field: 'template.name' }] });
    expect(await problemOf(service.checkSend('ten_none', '+15550001111', null, send('order_ready')))).toMatchObject({ status: 400, errors: [{ field: 'channel' }] });
  });

  it('refuses a send that leaves a placeholder unfilled (400 naming template.components)', async () => {
    const { service, templates } = setup();
    templates.seed({ id: 'tpl_1', tenant_id: 'ten_a', channel_id: 'chn_a1', name: 'shipped', language: 'en', category: 'UTILITY', components: [{ type: 'BODY', text: 'Order {{1}} shipped.' }], status: 'APPROVED' });
    expect(await problemOf(service.checkSend('ten_a', '+15550001111', null, send('shipped')))).toMatchObject({ status: 400, errors: [{ field: 'template.components' }] });
    expect(await service.checkSend('ten_a', '+15550001111', null, send('shipped', 'en', [{ type: 'body', parameters: [{ type: 'text', text: 'A-17' }] }]))).toEqual({ ok: true });
  });

  it('refuses a MARKETING template to a customer who opted out of the tenant (409 opted-out), not a UTILITY one nor another tenant', async () => {
    const { service, templates } = setup(['ten_a +15550002222']);
    for (const [id, name, category] of [['tpl_m', 'spring_sale', 'MARKETING'], ['tpl_u', 'order_ready', 'UTILITY']] as const) {
      templates.seed({ id, tenant_id: 'ten_a', channel_id: 'chn_a1', name, language: 'en', category, components: body.components, status: 'APPROVED' });
    }
    templates.seed({ id: 'tpl_b', tenant_id: 'ten_b', channel_id: 'chn_b', name: 'spring_sale', language: 'en', category: 'MARKETING', components: body.components, status: 'APPROVED' });
    expect(await problemOf(service.checkSend('ten_a', '+15550002222', null, send('spring_sale')))).toMatchObject({ status: 409, type: ProblemTypes.optedOut });
    expect(await service.checkSend('ten_a', '+15550002222', null, send('order_ready'))).toEqual({ ok: true });
    expect(await service.checkSend('ten_a', '+15550003333', null, send('spring_sale'))).toEqual({ ok: true });
    expect(await service.checkSend('ten_b', '+15550002222', null, send('spring_sale'))).toEqual({ ok: true });
  });

  it("sends Meta's sample hello_world from a channel without a hello_world of its own, and its own one otherwise", async () => {
    const { service, templates } = setup();
    expect(await service.checkSend('ten_a', '+15550001111', null, send('hello_world', 'en_US'))).toEqual({ ok: true });
    templates.seed({ id: 'tpl_h', tenant_id: 'ten_a', channel_id: 'chn_a1', name: 'hello_world', language: 'en_US', category: 'UTILITY', components: body.components, status: 'PENDING' });
    expect(await problemOf(service.checkSend('ten_a', '+15550001111', null, send('hello_world', 'en_US')))).toMatchObject({ status: 400, errors: [{ field: 'template.name' }] });
  });

  it('applies APPROVED and REJECTED reviews (a REJECTED without a reason is REJECTED) and announces each change once, under its tenant', async () => {
    const { service, templates, publisher } = setup();
    const { id } = await service.create('ten_a', body);
    await service.applyStatusUpdates([review({ providerTemplateId: 'pt_1', event: 'REJECTED', reason: 'NONE' })], 'req_1');
    expect(templates.rows.get(id)).toMatchObject({ status: 'REJECTED', reason: 'REJECTED' });
    await service.applyStatusUpdates([review({ name: 'order_ready', language: 'en', event: 'APPROVED' })]);
    expect(templates.rows.get(id)).toMatchObject({ status: 'APPROVED', reason: null });
    await service.applyStatusUpdates([review({ name: 'order_ready', language: 'en', event: 'APPROVED' })]); // a repeated notification

    const announced = publisher.publishEvent.mock.calls as unknown as [{ type: string; tenant_id: string; data: { template: { id: string; status: string; reason: string | null } } }, string, string?][];
    expect(announced.map(([envelope, key, requestId]) => [envelope.type, envelope.tenant_id, key, requestId, envelope.data.template.status, envelope.data.template.reason])).toEqual([
      ['template.status', 'ten_a', `ten_a:${id}`, 'req_1', 'REJECTED', 'REJECTED'],
      ['template.status', 'ten_a', `ten_a:${id}`, undefined, 'APPROVED', null],
    ]);
  });

  it('leaves a template alone on review events it does not track (PAUSED, FLAGGED), announcing nothing', async () => {
    const { service, templates, publisher } = setup();
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const { id } = await service.create('ten_a', body);
    await service.applyStatusUpdates([review({ providerTemplateId: 'pt_1', event: 'PAUSED' }), review({ providerTemplateId: 'pt_1', event: 'FLAGGED', reason: 'LOW_QUALITY' })]);
    expect(templates.rows.get(id)).toMatchObject({ status: 'PENDING', reason: null });
    expect(publisher.publishEvent).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('PAUSED (not tracked)'));
    log.mockRestore();
  });
});
