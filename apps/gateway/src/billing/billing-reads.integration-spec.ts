import { Headers, RPC_REPLY_TOPIC, RpcTopics } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/**
 * What the dashboard's Billing and Usage pages read (issue 32): the gateway checks the query itself, asks the owning
 * service (played here: billing-service and responder-service are not running) and shapes its answer: this month's
 * usage, an estimate, a top-up's receipt PDF, the wallet with whether sends are refused for money, and which LLM is in
 * use without an error status when the tenant has none of its own.
 */
describe('gateway: billing reads of the dashboard', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let billing: TopicProbe<Record<string, unknown>>;
  let responder: TopicProbe<Record<string, unknown>>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwbillingreads');
    account = await gw.signUp();
    [billing, responder] = await Promise.all([gw.kafka.probe<Record<string, unknown>>(RpcTopics.billing), gw.kafka.probe<Record<string, unknown>>(RpcTopics.responder)]);
  });

  afterAll(async () => {
    await billing?.stop();
    await responder?.stop();
    await gw?.close();
  });

  const get = (path: string) => gw.request('GET', path, { token: account.api_key });

  /** Calls already answered: each answer goes to the next call of its pattern. */
  const answered = new Set<unknown>();
  /** Plays the owning service: answers the next call of `pattern` with `data`, and returns what it was asked. */
  async function answer(probe: TopicProbe<Record<string, unknown>>, pattern: string, data: unknown): Promise<Record<string, unknown>> {
    const call = await pollUntil(() => probe.messages.find((m) => m.headers[Headers.RpcPattern] === pattern && !answered.has(m)), { description: `a ${pattern} call` });
    answered.add(call);
    const correlation = call.headers[Headers.CorrelationId];
    await gw.kafka.publisher.publish([{ topic: RPC_REPLY_TOPIC, key: correlation, value: { ok: true, data }, headers: { [Headers.CorrelationId]: correlation } }]);
    return call.value;
  }

  it('refuses a bad estimate query naming each field, without a call to billing-service', async () => {
    const cases: [string, string][] = [
      ['quantity=-1', 'quantity'],
      ['quantity=1.5', 'quantity'],
      ['channel=fax&quantity=1', 'channel'],
      ['quantity=3&template_name=spring_cakes', 'template_language'],
      ['quantity=3&template_name=Spring Cakes&template_language=en', 'template_name'],
    ];
    for (const [query, field] of cases) {
      const refused = await get(`/api/v1/billing/estimate?${query}`);
      expect({ query, status: refused.status, fields: refused.body.errors.map((e: { field: string }) => e.field) }).toEqual({ query, status: 400, fields: [field] });
    }
    expect((await get('/api/v1/billing/estimate')).body.errors).toEqual([{ field: 'quantity', message: expect.stringContaining('whole number') }]);
    // an id that is no top-up's is not found, and not asked about
    expect((await get('/api/v1/billing/top-ups/inv_123/receipt.pdf')).status).toBe(404);
    expect(billing.messages).toEqual([]);
  });

  it('forwards an estimate with its template and the caller’s tenant, and answers billing-service’s figures', async () => {
    const estimate = { amount: '50.000000', currency: 'USD', category: 'marketing', unit_price: '0.050000', quantity: 1200, billable: 1000, balance: '0.000000', payable: false };
    const [answerOf, asked] = await Promise.all([
      get('/api/v1/billing/estimate?quantity=1200&template_name=spring_cakes&template_language=en'),
      answer(billing, 'billing.estimate', estimate),
    ]);
    expect(asked).toEqual({ tenant_id: account.tenant_id, channel: 'whatsapp', template: { name: 'spring_cakes', language: 'en' }, quantity: 1200 });
    expect({ status: answerOf.status, body: answerOf.body }).toEqual({ status: 200, body: estimate });
  });

  it('answers this month’s usage from billing-service for the caller’s tenant', async () => {
    const month = { month: '2026-12', period_start: '2026-12-01T00:00:00.000Z', period_end: '2027-01-01T00:00:00.000Z', plan: 'free', free_allowance: 1000, messages: 812, free_left: 188, data: [{ channel: 'whatsapp', category: 'service', quantity: 812 }] };
    const [answerOf, asked] = await Promise.all([get('/api/v1/billing/usage/month'), answer(billing, 'billing.month-usage', month)]);
    expect(asked).toEqual({ tenant_id: account.tenant_id });
    expect({ status: answerOf.status, body: answerOf.body }).toEqual({ status: 200, body: month });
  });

  it('serves a top-up’s receipt as a PDF download', async () => {
    const pdf = Buffer.from('%PDF-1.3 receipt');
    const [answerOf, asked] = await Promise.all([
      fetch(`${gw.baseUrl}/api/v1/billing/top-ups/top_01JZ0000000000000000000000/receipt.pdf`, { headers: { authorization: `Bearer ${account.api_key}` } }),
      answer(billing, 'billing.top-up-receipt-pdf', { filename: 'receipt-top_01JZ0000000000000000000000.pdf', pdf_base64: pdf.toString('base64') }),
    ]);
    expect(asked).toEqual({ tenant_id: account.tenant_id, top_up_id: 'top_01JZ0000000000000000000000' });
    expect(answerOf.status).toBe(200);
    expect(answerOf.headers.get('content-type')).toBe('application/pdf');
    expect(answerOf.headers.get('content-disposition')).toBe('attachment; filename="receipt-top_01JZ0000000000000000000000.pdf"');
    expect(Buffer.from(await answerOf.arrayBuffer())).toEqual(pdf);
  });

  it('says with the wallet that a send it cannot cover is refused (BILLING_ENFORCED, on by default)', async () => {
    const wallet = { balance: '0.000000', currency: 'USD', low_balance_threshold: '5.000000', held: '0.000000', plan: 'free' };
    const [answerOf] = await Promise.all([get('/api/v1/billing/wallet'), answer(billing, 'billing.wallet', wallet)]);
    expect(answerOf.body).toEqual({ ...wallet, enforced: true });
  });

  it('answers which LLM is in use with 200: the platform’s without settings of the tenant’s own, else the settings without the key', async () => {
    const [platform] = await Promise.all([get('/api/v1/settings/llm'), answer(responder, 'llm-settings.get', null)]);
    expect({ status: platform.status, body: platform.body }).toEqual({ status: 200, body: { source: 'platform' } });

    const settings = { base_url: 'https://llm.example/v1', model: 'm', monthly_budget: '10.000000', api_key_set: true, api_key_last4: '1234' };
    const [own] = await Promise.all([get('/api/v1/settings/llm'), answer(responder, 'llm-settings.get', settings)]);
    expect({ status: own.status, body: own.body }).toEqual({ status: 200, body: { source: 'tenant', ...settings } });
  });
});
