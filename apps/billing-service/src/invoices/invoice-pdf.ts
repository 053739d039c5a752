import { amountText, type InvoiceRecord } from '@parley/contracts';
import PDFDocument from 'pdfkit';

const day = (iso: string) => iso.slice(0, 10);

/**
 * An invoice as a one-page A4 PDF, drawn from the same record the JSON route answers. Uncompressed content streams
 * (a few kB) keep its numbers readable by any PDF text extractor.
 */
export function renderInvoicePdf(invoice: InvoiceRecord, tenantId: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, compress: false, info: { Title: `Invoice ${invoice.number}`, Author: 'Parley', CreationDate: new Date(invoice.issued_at) } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(20).text(`Invoice ${invoice.number}`);
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.text(`Invoice id: ${invoice.id}`);
  doc.text(`Tenant: ${tenantId}`);
  doc.text(`Period: ${day(invoice.period_start)} to ${day(invoice.period_end)} (${invoice.period_start} - ${invoice.period_end})`);
  doc.text(`Issued: ${invoice.issued_at}`);
  doc.text(`Currency: ${invoice.currency}`);
  doc.moveDown();

  const columns = { category: 56, quantity: 260, amount: 380 };
  const row = (category: string, quantity: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(category, columns.category, y, { width: 190 });
    doc.text(quantity, columns.quantity, y, { width: 100, align: 'right' });
    doc.text(amount, columns.amount, y, { width: 150, align: 'right' });
    doc.x = columns.category;
    doc.moveDown(0.4);
  };
  row('Category', 'Quantity', `Amount (${invoice.currency})`, true);
  for (const line of invoice.lines) row(line.category, String(line.quantity), amountText(line.amount));
  if (invoice.lines.length === 0) row('No usage in this period', '0', amountText('0.000000'));
  doc.moveDown(0.4);
  row('Total', '', amountText(invoice.total), true);
  doc.moveDown();
  doc.font('Helvetica').text(`Top-ups received in the period: ${amountText(invoice.payments)} ${invoice.currency} (prepaid; the total was charged to the wallet).`, columns.category);
  doc.end();
  return done;
}
