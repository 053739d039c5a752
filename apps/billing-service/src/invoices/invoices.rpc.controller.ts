import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { renderInvoicePdf } from './invoice-pdf';
import { InvoicesService } from './invoices.service';

/** Request-reply handlers of the invoice routes (CONTRACT.md §16). */
@Controller()
export class InvoicesRpcController {
  constructor(private readonly invoices: InvoicesService) {}

  @MessagePattern('billing.invoices')
  list(@Payload() req: RpcRequest<'billing.invoices'>): Promise<RpcResponse<'billing.invoices'>> {
    return this.invoices.list(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('billing.issue-invoice')
  issue(@Payload() req: RpcRequest<'billing.issue-invoice'>): Promise<RpcResponse<'billing.issue-invoice'>> {
    return this.invoices.issueCurrent(req.tenant_id);
  }

  @MessagePattern('billing.invoice')
  get(@Payload() req: RpcRequest<'billing.invoice'>): Promise<RpcResponse<'billing.invoice'>> {
    return this.invoices.get(req.tenant_id, req.invoice_id);
  }

  @MessagePattern('billing.invoice-pdf')
  async pdf(@Payload() req: RpcRequest<'billing.invoice-pdf'>): Promise<RpcResponse<'billing.invoice-pdf'>> {
    const invoice = await this.invoices.get(req.tenant_id, req.invoice_id);
    const pdf = await renderInvoicePdf(invoice, req.tenant_id);
    return { filename: `invoice-${invoice.number}.pdf`, pdf_base64: pdf.toString('base64') };
  }
}
