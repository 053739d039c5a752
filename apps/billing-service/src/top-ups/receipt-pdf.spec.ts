import { pdfText } from '@parley/testing';
import { renderReceiptPdf } from './receipt-pdf';

describe('renderReceiptPdf', () => {
  it('is a PDF whose text names the amount paid, its currency, the day and the top-up', async () => {
    const pdf = await renderReceiptPdf(
      { id: 'top_01JZ0000000000000000000000', amount: '25.000000', currency: 'EUR', session_id: 'cs_test_abc', paid_at: '2026-12-05T10:15:00.000Z' },
      'ten_01JZ0000000000000000000000',
    );
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Receipt');
    expect(text).toContain('Amount received: 25.00 EUR');
    expect(text).toContain('Top-up by card: 25.00 EUR');
    expect(text).toContain('Paid: 2026-12-05');
    expect(text).toContain('top_01JZ0000000000000000000000');
    expect(text).toContain('ten_01JZ0000000000000000000000');
  });
});
