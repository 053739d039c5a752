import type { InvoiceRecord } from '@parley/contracts';
import { pdfText } from '@parley/testing';
import { renderInvoicePdf } from './invoice-pdf';

describe('renderInvoicePdf', () => {
  const invoice: InvoiceRecord = {
    id: 'inv_01JZ0000000000000000000000',
    number: 7,
    period_start: '2026-10-01T00:00:00.000Z',
    period_end: '2026-11-01T00:00:00.000Z',
    currency: 'USD',
    lines: [
      { category: 'marketing', quantity: 3, amount: '0.120000' },
      { category: 'service', quantity: 2, amount: '0.009000' },
    ],
    total: '0.129000',
    payments: '20.000000',
    issued_at: '2026-11-01T00:05:00.000Z',
  };

  it('is a PDF whose text carries the number, the period, each line and the total', async () => {
    const pdf = await renderInvoicePdf(invoice, 'ten_01JZ0000000000000000000000');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Invoice 7');
    expect(text).toContain('2026-10-01 to 2026-11-01');
    expect(text).toMatch(/marketing\s+3\s+0\.12\b/);
    expect(text).toMatch(/service\s+2\s+0\.009\b/);
    expect(text).toMatch(/Total\s+0\.129\b/);
    expect(text).toContain('20.00 USD');
  });
});
