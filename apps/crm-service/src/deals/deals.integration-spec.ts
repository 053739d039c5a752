import { Topics, newId, type CreateDealBody, type DealCreatedData, type DealRecord, type DealStageChangedData, type EventEnvelope, type UpdateDealBody } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { leadCaptured } from '../test/events';
import { startCrmService, type CrmServiceUnderTest } from '../test/crm-service-under-test';

describe('crm-service: pipelines and deals', () => {
  let crm: CrmServiceUnderTest;
  let created: TopicProbe<EventEnvelope<'deal.created', DealCreatedData>>;
  let stageChanges: TopicProbe<EventEnvelope<'deal.stage_changed', DealStageChangedData>>;

  beforeAll(async () => {
    crm = await startCrmService('crmdeals');
    [created, stageChanges] = await Promise.all([
      crm.kafka.probe<EventEnvelope<'deal.created', DealCreatedData>>(Topics.DealCreated),
      crm.kafka.probe<EventEnvelope<'deal.stage_changed', DealStageChangedData>>(Topics.DealStageChanged),
    ]);
    crm.onClose(async () => void (await Promise.all([created.stop(), stageChanges.stop()])));
  });

  afterAll(async () => {
    await crm?.close();
  });

  const contactOf = async (tenantId: string, phone: string) => (await crm.call('contacts.create', { tenant_id: tenantId, body: { phone, name: 'Ana Lima' } })).id;
  const createDeal = (tenantId: string, body: Partial<CreateDealBody>) =>
    crm.call('deals.create', { tenant_id: tenantId, body: { title: 'Kitchen', value: { amount: '100', currency: 'EUR' }, ...body } as CreateDealBody });
  const dealsOf = (tenantId: string, filters: { contact_id?: string; stage?: string; pipeline_id?: string } = {}) =>
    crm.call('deals.list', { tenant_id: tenantId, limit: 100, cursor: null, ...filters }).then((page) => page.data);
  const fieldsOf = async (problem: Promise<{ status: number; errors?: { field: string }[] }>) => {
    const p = await problem;
    return { status: p.status, fields: [...new Set((p.errors ?? []).map((e) => e.field))] };
  };

  it("gives each tenant a default pipeline (new, qualified, proposal, won, lost) on first use, and custom ones with their stages in order", async () => {
    const tenant = newId('ten');
    const [first, again] = await Promise.all([crm.call('pipelines.list', { tenant_id: tenant }), crm.call('pipelines.list', { tenant_id: tenant })]);
    expect(first.data).toEqual([expect.objectContaining({ stages: ['new', 'qualified', 'proposal', 'won', 'lost'], is_default: true })]);
    expect(again.data).toEqual(first.data);

    const custom = await crm.call('pipelines.create', { tenant_id: tenant, body: { name: 'Renovations', stages: ['visit', 'quote', 'signed'] } });
    expect(custom).toMatchObject({ id: expect.stringMatching(/^pip_/), name: 'Renovations', stages: ['visit', 'quote', 'signed'], is_default: false });
    expect((await crm.call('pipelines.list', { tenant_id: tenant })).data.map((p) => p.id)).toEqual([first.data[0].id, custom.id]);

    const contact = await contactOf(tenant, '+4915120000001');
    const deal = await createDeal(tenant, { contact_id: contact, pipeline_id: custom.id });
    expect(deal).toMatchObject({ pipeline_id: custom.id, stage: 'visit' });
    expect(await createDeal(tenant, { contact_id: contact })).toMatchObject({ pipeline_id: first.data[0].id, stage: 'new' });

    expect(await fieldsOf(crm.problemOf('deals.create', { tenant_id: tenant, body: { title: 'x', contact_id: contact, pipeline_id: custom.id, stage: 'won', value: { amount: '1', currency: 'EUR' } } }))).toEqual({ status: 400, fields: ['stage'] });
    expect(await fieldsOf(crm.problemOf('pipelines.create', { tenant_id: tenant, body: { name: 'Dup', stages: ['a', 'a'] } }))).toEqual({ status: 400, fields: ['stages'] });
    expect(await fieldsOf(crm.problemOf('pipelines.create', { tenant_id: tenant, body: { name: 'Empty', stages: [] } }))).toEqual({ status: 400, fields: ['stages'] });
  });

  it('keeps money exact as decimal strings and refuses amounts and currencies that are not', async () => {
    const tenant = newId('ten');
    const contact = await contactOf(tenant, '+4915120000002');
    for (const amount of ['1234567.89', '0.1', '999999999999999.9999', '0', '19.90']) {
      const deal = await createDeal(tenant, { contact_id: contact, value: { amount, currency: 'EUR' } });
      expect(deal.value).toEqual({ amount, currency: 'EUR' });
      expect((await crm.call('deals.get', { tenant_id: tenant, id: deal.id })).value).toEqual({ amount, currency: 'EUR' });
    }
    // The database sums them exactly too (a float would not give 1234567.89 + 0.1 back as written).
    const [{ total }]: { total: string }[] = await crm.sql.query(`SELECT sum(amount)::text AS total FROM deals WHERE tenant_id = $1 AND amount IN (1234567.89, 0.1)`, [tenant]);
    expect(total).toBe('1234567.99');

    for (const amount of ['1.2e3', '-5', '1,5', '01', '1.23456', '1234567890123456', '', 12.5]) {
      expect({ amount, ...(await fieldsOf(crm.problemOf('deals.create', { tenant_id: tenant, body: { title: 'x', contact_id: contact, value: { amount, currency: 'EUR' } } as unknown as CreateDealBody }))) }).toEqual({
        amount,
        status: 400,
        fields: ['value.amount'],
      });
    }
    for (const currency of ['eur', 'EURO', 'ABC', '']) {
      expect({ currency, ...(await fieldsOf(crm.problemOf('deals.create', { tenant_id: tenant, body: { title: 'x', contact_id: contact, value: { amount: '1', currency } } }))) }).toEqual({
        currency,
        status: 400,
        fields: ['value.currency'],
      });
    }
    const deal = await createDeal(tenant, { contact_id: contact, value: { amount: '5', currency: 'JPY' } });
    expect((await crm.call('deals.update', { tenant_id: tenant, id: deal.id, body: { value: { amount: '1234567.89', currency: 'USD' } } })).value).toEqual({ amount: '1234567.89', currency: 'USD' });
    expect((await crm.call('deals.update', { tenant_id: tenant, id: deal.id, body: { value: null } })).value).toBeNull();
  });

  it('keeps an owner and an expected close date (a calendar date), changed and cleared by PATCH, refused when not a real date', async () => {
    const tenant = newId('ten');
    const contact = await contactOf(tenant, '+4915120000005');
    const owner = newId('usr');
    const deal = await createDeal(tenant, { contact_id: contact, owner, expected_close_date: '2026-03-31', value: { amount: '1250.00', currency: 'NOK' } });
    expect(deal).toMatchObject({ owner, expected_close_date: '2026-03-31', value: { amount: '1250.00', currency: 'NOK' } });
    expect(await crm.call('deals.get', { tenant_id: tenant, id: deal.id })).toEqual(deal);
    // A date stays the day it was given, whatever the database's or the server's time zone.
    const [{ stored }]: { stored: string }[] = await crm.sql.query(`SELECT expected_close_date::text AS stored FROM deals WHERE id = $1`, [deal.id]);
    expect(stored).toBe('2026-03-31');

    const change = (body: UpdateDealBody) => crm.call('deals.update', { tenant_id: tenant, id: deal.id, body });
    expect(await change({ title: 'Cargo bike' })).toMatchObject({ title: 'Cargo bike', expected_close_date: '2026-03-31', owner });
    expect(await change({ expected_close_date: '2026-12-01' })).toMatchObject({ expected_close_date: '2026-12-01' });
    expect(await change({ expected_close_date: null, owner: null })).toMatchObject({ expected_close_date: null, owner: null });
    expect((await createDeal(tenant, { contact_id: contact })).expected_close_date).toBeNull();

    for (const date of ['2026-02-30', '31.03.2026', '2026-03-31T00:00:00Z', 20260331]) {
      expect({ date, ...(await fieldsOf(crm.problemOf('deals.create', { tenant_id: tenant, body: { title: 'x', contact_id: contact, value: { amount: '1', currency: 'EUR' }, expected_close_date: date } as unknown as CreateDealBody }))) }).toEqual({
        date,
        status: 400,
        fields: ['expected_close_date'],
      });
    }
    expect(await fieldsOf(crm.problemOf('deals.update', { tenant_id: tenant, id: deal.id, body: { expected_close_date: '2026-13-01' } }))).toEqual({ status: 400, fields: ['expected_close_date'] });
  });

  it('announces deal.created, and deal.stage_changed once per real change with the stage it left', async () => {
    const tenant = newId('ten');
    const contact = await contactOf(tenant, '+4915120000003');
    const deal = await createDeal(tenant, { contact_id: contact, value: { amount: '1234567.89', currency: 'EUR' } });
    await pollUntil(() => created.messages.find((m) => m.value.data.deal.id === deal.id), { description: 'deal.created' });
    const announced = created.messages.find((m) => m.value.data.deal.id === deal.id)!;
    expect(announced.key).toBe(`${tenant}:${deal.id}`);
    expect(announced.value).toMatchObject({ type: 'deal.created', tenant_id: tenant, data: { event: 'deal.created', tenant_id: tenant, deal } });

    const change = (body: UpdateDealBody) => crm.call('deals.update', { tenant_id: tenant, id: deal.id, body });
    expect(await change({ stage: 'qualified' })).toMatchObject({ stage: 'qualified', value: { amount: '1234567.89', currency: 'EUR' } });
    await change({ title: 'Kitchen and bath' }); // no stage change: no event
    await change({ stage: 'qualified' }); // the same stage: no event
    const won = await change({ stage: 'won' });
    const ofDeal = () => stageChanges.messages.filter((m) => m.value.data.deal.id === deal.id);
    await pollUntil(() => ofDeal().length >= 2, { description: 'two deal.stage_changed' });
    expect(ofDeal().map((m) => [m.value.data.previous_stage, m.value.data.deal.stage])).toEqual([
      ['new', 'qualified'],
      ['qualified', 'won'],
    ]);
    expect(ofDeal()[1].value.data.deal).toEqual(won);
    expectMatchesEventSchema('deal.created', announced.value);
    expectMatchesEventSchema('deal.stage_changed', ofDeal()[1].value);

    expect(await fieldsOf(crm.problemOf('deals.update', { tenant_id: tenant, id: deal.id, body: { stage: 'signed' } }))).toEqual({ status: 400, fields: ['stage'] });
    expect((await crm.call('deals.get', { tenant_id: tenant, id: deal.id })).stage).toBe('won');
  });

  it("opens one deal per captured lead, in the default pipeline's first stage, for the lead's contact", async () => {
    const tenant = newId('ten');
    const phone = '+4915120000004';
    const first = leadCaptured(tenant, { phone, name: 'Ana Lima', interest: 'kitchen renovation' });
    const second = leadCaptured(tenant, { phone, name: 'Ana Lima', interest: 'garden' });
    // redelivered, then another lead of the same number: one partition, so when the second's deal is there the copy was handled
    await crm.publish({ envelope: first, key: `${tenant}:${phone}` }, { envelope: first, key: `${tenant}:${phone}` }, { envelope: second, key: `${tenant}:${phone}` });
    const deals = await pollUntil(
      async () => {
        const found = await dealsOf(tenant);
        return found.some((d) => d.lead_id === second.data.lead.id) ? found : undefined;
      },
      { description: "the second lead's deal", timeoutMs: 30_000 },
    );
    const contacts = await crm.call('contacts.list', { tenant_id: tenant, limit: 10, cursor: null });
    expect(contacts.data).toEqual([expect.objectContaining({ phone, name: 'Ana Lima' })]);
    const defaultPipeline = (await crm.call('pipelines.list', { tenant_id: tenant })).data[0];
    const byLead = (leadId: string) => deals.filter((d) => d.lead_id === leadId);
    expect(byLead(first.data.lead.id)).toEqual([
      expect.objectContaining<Partial<DealRecord>>({ title: 'Ana Lima: kitchen renovation', contact_id: contacts.data[0].id, pipeline_id: defaultPipeline.id, stage: 'new', value: null }),
    ]);
    expect(byLead(second.data.lead.id)).toHaveLength(1);
    expect(deals).toHaveLength(2);
    await pollUntil(() => created.messages.filter((m) => m.value.tenant_id === tenant).length >= 2, { description: 'deal.created for each lead' });
    expect(created.messages.filter((m) => m.value.tenant_id === tenant).map((m) => m.value.data.deal.lead_id).sort()).toEqual([first.data.lead.id, second.data.lead.id].sort());
  });

  it("keeps tenants apart: another tenant's deal is 404, its contact, company and pipeline are no ids here", async () => {
    const [owner, stranger] = [newId('ten'), newId('ten')];
    const contact = await contactOf(owner, '+4915120000005');
    const company = await crm.call('companies.create', { tenant_id: owner, body: { name: 'Lima Ltd' } });
    const custom = await crm.call('pipelines.create', { tenant_id: owner, body: { name: 'Private', stages: ['one', 'two'] } });
    const deal = await createDeal(owner, { contact_id: contact, company_id: company.id });
    const strangersContact = await contactOf(stranger, '+4915120000005');

    for (const [pattern, request] of [
      ['deals.get', { tenant_id: stranger, id: deal.id }],
      ['deals.update', { tenant_id: stranger, id: deal.id, body: { stage: 'won' } }],
      ['deals.delete', { tenant_id: stranger, id: deal.id }],
    ] as const) {
      expect({ pattern, status: (await crm.problemOf(pattern, request as never)).status }).toEqual({ pattern, status: 404 });
    }
    expect(await dealsOf(stranger)).toEqual([]);
    expect((await crm.call('pipelines.list', { tenant_id: stranger })).data.map((p) => p.id)).not.toContain(custom.id);
    expect(await fieldsOf(crm.problemOf('deals.create', { tenant_id: stranger, body: { title: 'x', contact_id: contact, value: { amount: '1', currency: 'EUR' } } }))).toEqual({ status: 400, fields: ['contact_id'] });
    expect(await fieldsOf(crm.problemOf('deals.create', { tenant_id: stranger, body: { title: 'x', contact_id: strangersContact, company_id: company.id, value: { amount: '1', currency: 'EUR' } } }))).toEqual({ status: 400, fields: ['company_id'] });
    expect(await fieldsOf(crm.problemOf('deals.create', { tenant_id: stranger, body: { title: 'x', contact_id: strangersContact, pipeline_id: custom.id, value: { amount: '1', currency: 'EUR' } } }))).toEqual({ status: 400, fields: ['pipeline_id'] });

    expect(await crm.call('deals.get', { tenant_id: owner, id: deal.id })).toEqual(deal);
    expect(await crm.call('deals.delete', { tenant_id: owner, id: deal.id })).toEqual({ deleted: true });
    expect((await crm.problemOf('deals.get', { tenant_id: owner, id: deal.id })).status).toBe(404);
  });

  it('filters the list by stage, pipeline and contact', async () => {
    const tenant = newId('ten');
    const [ana, bob] = [await contactOf(tenant, '+4915120000006'), await contactOf(tenant, '+4915120000007')];
    const a = await createDeal(tenant, { contact_id: ana });
    const b = await createDeal(tenant, { contact_id: bob, stage: 'proposal' });
    expect((await dealsOf(tenant)).map((d) => d.id)).toEqual([b.id, a.id]);
    expect((await dealsOf(tenant, { stage: 'proposal' })).map((d) => d.id)).toEqual([b.id]);
    expect((await dealsOf(tenant, { contact_id: ana })).map((d) => d.id)).toEqual([a.id]);
    expect((await dealsOf(tenant, { pipeline_id: a.pipeline_id })).map((d) => d.id)).toEqual([b.id, a.id]);
  });
});
