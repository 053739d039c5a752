import { newId, type InvoiceRecord } from '@parley/contracts';
import { pdfText, pollUntil } from '@parley/testing';
import { startBillingService, type BillingServiceUnderTest } from '../test/billing-service-under-test';
import { InvoicesService } from './invoices.service';

/** Monthly invoices from the ledger: lines per category, totals equal to the ledger's, numbers without gaps, a PDF. */
describe('billing-service: invoices', () => {
  let billing: BillingServiceUnderTest;

  beforeAll(async () => {
    billing = await startBillingService('invoices');
  }, 120_000);
  afterAll(() => billing?.close());

  const rpc = () => billing.kafka.rpc;

  /** A `pro` tenant (every message paid) with money, that sent `marketing` templates and `service` texts, one of them failed after it was sent. */
  async function tenantWithUsage(): Promise<string> {
    const tenantId = newId('ten');
    await rpc().request('billing.set-plan', { tenant_id: tenantId, plan: 'pro' });
    await billing.topUp(tenantId, '10');
    await billing.approveTemplate(tenantId, 'spring_sale', 'en_US', 'MARKETING');
    const sends = [
      await billing.accept(tenantId, { content: { type: 'template', template: { name: 'spring_sale', language: { code: 'en_US' } } } }),
      await billing.accept(tenantId, { content: { type: 'template', template: { name: 'spring_sale', language: { code: 'en_US' } } } }),
      await billing.accept(tenantId),
      await billing.accept(tenantId),
      await billing.accept(tenantId),
    ];
    for (const send of sends) {
      await billing.chargeReaching(send.data.message_id, 'held');
      await billing.status(tenantId, send.data.message_id, 'sent');
      await billing.chargeReaching(send.data.message_id, 'settled');
    }
    // Sent, then reported failed: refunded.
    await billing.status(tenantId, sends[4].data.message_id, 'failed');
    await billing.chargeReaching(sends[4].data.message_id, 'refunded');
    return tenantId;
  }

  /** What the ledger says the tenant was charged in a period: settlements less refunds, per category. */
  async function ledgerCharges(tenantId: string, invoice: InvoiceRecord) {
    return (await billing.sql.query(
      `SELECT c.category, sum(CASE WHEN t.kind = 'settlement' THEN t.amount ELSE -t.amount END)::numeric(20, 6)::text AS amount
         FROM ledger_transactions t JOIN charges c ON c.message_id = t.cause_id
        WHERE t.tenant_id = $1 AND t.kind IN ('settlement', 'refund') AND t.created_at >= $2 AND t.created_at < $3
        GROUP BY 1 ORDER BY 1`,
      [tenantId, invoice.period_start, invoice.period_end],
    )) as { category: string; amount: string }[];
  }

  it('invoices the month so far with a line per category whose amounts and total are the ledger’s, and renders it as a PDF with the same numbers', async () => {
    const tenantId = await tenantWithUsage();
    const invoice = await rpc().request('billing.issue-invoice', { tenant_id: tenantId });

    // pro prices: marketing 0.04, service 0.004; the failed service message was refunded.
    expect(invoice).toMatchObject({
      id: expect.stringMatching(/^inv_/),
      number: 1,
      currency: 'USD',
      lines: [
        { category: 'marketing', quantity: 2, amount: '0.080000' },
        { category: 'service', quantity: 2, amount: '0.008000' },
      ],
      total: '0.088000',
      payments: '10.000000',
    });
    const charges = await ledgerCharges(tenantId, invoice);
    expect(invoice.lines.map(({ category, amount }) => ({ category, amount }))).toEqual(charges);
    // The revenue account (settlements in, refunds out) holds exactly the invoice's total.
    const [{ revenue }] = (await billing.sql.query(`SELECT sum(amount)::numeric(20, 6)::text AS revenue FROM ledger_entries WHERE tenant_id = $1 AND account = 'revenue'`, [
      tenantId,
    ])) as { revenue: string }[];
    expect(revenue).toBe(invoice.total);
    expect((await billing.wallet(tenantId)).balance).toBe('9.912000');
    expect(await rpc().request('billing.invoice', { tenant_id: tenantId, invoice_id: invoice.id })).toEqual(invoice);

    const { filename, pdf_base64 } = await rpc().request('billing.invoice-pdf', { tenant_id: tenantId, invoice_id: invoice.id });
    expect(filename).toBe('invoice-1.pdf');
    const pdf = Buffer.from(pdf_base64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Invoice 1');
    expect(text).toMatch(/marketing\s+2\s+0\.08\b/);
    expect(text).toMatch(/service\s+2\s+0\.008\b/);
    expect(text).toMatch(/Total\s+0\.088\b/);
  });

  it('counts an SMS line in segments, as it was priced', async () => {
    await rpc().request('billing.set-prices', { body: { prices: [{ plan: 'pro', category: 'sms', unit_price: '0.0075', currency: 'USD' }] } });
    const tenantId = newId('ten');
    await rpc().request('billing.set-plan', { tenant_id: tenantId, plan: 'pro' });
    await billing.topUp(tenantId, '1');
    // 200 GSM-7 characters go out as 2 segments, a short text as 1.
    for (const text of ['a'.repeat(200), 'See you at 10.']) {
      const send = await billing.accept(tenantId, { channel: 'sms', content: { type: 'text', text } });
      await billing.chargeReaching(send.data.message_id, 'held');
      await billing.status(tenantId, send.data.message_id, 'sent');
      await billing.chargeReaching(send.data.message_id, 'settled');
    }
    const invoice = await rpc().request('billing.issue-invoice', { tenant_id: tenantId });
    expect(invoice.lines).toEqual([{ category: 'sms', quantity: 3, amount: '0.022500' }]);
  });

  it('closes ended months (a month the job missed included) and numbers every invoice without gaps', async () => {
    const tenantId = await tenantWithUsage();
    // Its usage so far becomes two months ago's (the job was down at the last month's end).
    const twoMonthsAgo = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 2, 10));
    await billing.sql.query(`UPDATE ledger_transactions SET created_at = $2 WHERE tenant_id = $1`, [tenantId, twoMonthsAgo]);
    await billing.topUp(tenantId, '1');

    const invoices = billing.app.get(InvoicesService);
    // The job, run twice at once and again: the ended month once (the empty month after it gets no invoice).
    const closed = await Promise.all([invoices.closeEndedMonthsOf(tenantId), invoices.closeEndedMonthsOf(tenantId)]);
    expect(closed.sort()).toEqual([0, 1]);
    expect(await invoices.closeEndedMonthsOf(tenantId)).toBe(0);

    // Then six on-demand invoices at once: each gets the next number.
    await Promise.all(Array.from({ length: 6 }, () => rpc().request('billing.issue-invoice', { tenant_id: tenantId })));

    const first = await rpc().request('billing.invoices', { tenant_id: tenantId, limit: 4, cursor: null });
    const rest = await rpc().request('billing.invoices', { tenant_id: tenantId, limit: 4, cursor: first.next_cursor });
    const all = [...first.data, ...rest.data];
    expect(rest.next_cursor).toBeNull();
    expect(all.map((i) => i.number)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const [monthly, ...onDemand] = [...all].reverse();
    expect(monthly).toMatchObject({ period_start: new Date(Date.UTC(twoMonthsAgo.getUTCFullYear(), twoMonthsAgo.getUTCMonth(), 1)).toISOString(), total: '0.088000', payments: '10.000000' });
    // Periods follow each other: each invoice starts where the one before it ended.
    onDemand.slice(1).forEach((invoice, i) => expect(invoice.period_start).toBe(onDemand[i].period_end));
    expect(onDemand[0].payments).toBe('1.000000');

    // Another tenant's invoice is not found.
    await expect(rpc().request('billing.invoice', { tenant_id: newId('ten'), invoice_id: monthly.id })).rejects.toMatchObject({ problem: { status: 404 } });
  });
});

describe('billing-service: the monthly invoice job', () => {
  let billing: BillingServiceUnderTest;

  beforeAll(async () => {
    billing = await startBillingService('invoicejob', { BILLING_INVOICE_JOB_INTERVAL_MS: '1000' });
  }, 120_000);
  afterAll(() => billing?.close());

  it('closes an ended month on its own', async () => {
    const tenantId = newId('ten');
    await billing.topUp(tenantId, '3');
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 20));
    await billing.sql.query(`UPDATE ledger_transactions SET created_at = $2 WHERE tenant_id = $1`, [tenantId, lastMonth]);

    const invoices = await pollUntil(
      async () => {
        const page = await billing.kafka.rpc.request('billing.invoices', { tenant_id: tenantId, limit: 10, cursor: null });
        return page.data.length > 0 ? page.data : undefined;
      },
      { description: 'the job to invoice last month', timeoutMs: 15_000 },
    );
    expect(invoices).toEqual([expect.objectContaining({ number: 1, period_start: new Date(Date.UTC(lastMonth.getUTCFullYear(), lastMonth.getUTCMonth(), 1)).toISOString(), payments: '3.000000', lines: [] })]);
  });
});
