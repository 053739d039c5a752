import { amountText } from '@parley/contracts';
import PDFDocument from 'pdfkit';

/** What a receipt says: a paid top-up. */
export interface PaidTopUp {
  id: string;
  amount: string;
  currency: string;
  /** The provider's Checkout Session: the payment's reference with the provider. */
  session_id: string | null;
  paid_at: string;
}

/**
 * A paid top-up's receipt as a one-page A4 PDF: money received, not billed (usage is on the monthly invoice).
 * Uncompressed content streams, as the invoice's, keep its text readable by any PDF text extractor.
 */
export function renderReceiptPdf(topUp: PaidTopUp, tenantId: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, compress: false, info: { Title: `Receipt ${topUp.id}`, Author: 'Parley', CreationDate: new Date(topUp.paid_at) } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(20).text('Receipt');
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.text(`Top-up by card: ${amountText(topUp.amount)} ${topUp.currency}`);
  doc.text(`Paid: ${topUp.paid_at.slice(0, 10)} (${topUp.paid_at})`);
  doc.text(`Receipt for: ${topUp.id}`);
  doc.text(`Tenant: ${tenantId}`);
  if (topUp.session_id) doc.text(`Payment reference: ${topUp.session_id}`);
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(14).text(`Amount received: ${amountText(topUp.amount)} ${topUp.currency}`);
  doc.moveDown();
  doc.font('Helvetica').fontSize(10).text('Credited to your prepaid wallet. Messages paid from it are listed on the monthly invoice.');
  doc.end();
  return done;
}
