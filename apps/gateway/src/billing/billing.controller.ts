import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  CreateTopUpBody,
  notFoundProblem,
  type CostEstimateRecord,
  type InvoiceRecord,
  type LedgerTransactionRecord,
  type MonthUsageRecord,
  type Page,
  type PriceRecord,
  type TopUpRecord,
  type UsageDayRecord,
  type WalletView,
} from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { FastifyReply } from 'fastify';
import { Requires } from '../identity/auth/permissions';
import { GatewayConfig } from '../config/gateway.config';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { EstimateQueryDto } from './estimate-query.dto';
import { UsageQueryDto } from './usage-query.dto';

/** The PDF billing-service rendered, answered as a download. */
function pdfDownload(reply: FastifyReply, rendered: { filename: string; pdf_base64: string }): Buffer {
  void reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${rendered.filename}"`);
  return Buffer.from(rendered.pdf_base64, 'base64');
}

/** The tenant's prices, wallet and ledger (CONTRACT.md §16), owned by billing-service. */
@Controller('api/v1/billing')
@Requires('billing.manage')
export class BillingController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly config: GatewayConfig,
  ) {}

  @ApiRoute({ summary: 'The price book: a unit price per plan and category', access: 'tenant', success: { status: 200, description: 'Every price.', schema: 'PriceList' } })
  @Get('prices')
  prices(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<{ data: PriceRecord[] }> {
    return this.rpc.request('billing.prices', { tenant_id: tenantId }, { requestId });
  }

  @ApiRoute({ summary: 'The prepaid wallet: balance, currency, low-balance threshold', access: 'tenant', success: { status: 200, description: 'The wallet.', schema: 'Wallet' } })
  @Get('wallet')
  async wallet(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<WalletView> {
    const wallet = await this.rpc.request('billing.wallet', { tenant_id: tenantId }, { requestId });
    // Said by the gateway, which is what refuses the sends: the dashboard tells the owner what happens at an empty wallet.
    return { ...wallet, enforced: this.config.BILLING_ENFORCED };
  }

  @ApiRoute({
    summary: 'Metered usage per UTC day, channel and category (messages, voice minutes, LLM tokens), oldest first',
    access: 'tenant',
    query: UsageQueryDto,
    success: { status: 200, description: 'The usage of the last `days` days.', schema: 'BillingUsage' },
  })
  @Get('usage')
  usage(@Tenant() tenantId: string, @Query() query: UsageQueryDto, @RequestId() requestId: string): Promise<{ data: UsageDayRecord[] }> {
    return this.rpc.request('billing.usage', { tenant_id: tenantId, days: query.days }, { requestId });
  }

  @ApiRoute({
    summary: 'This calendar month’s messages per channel and category, against the free allowance',
    description:
      'Messages of every channel count towards the `free` plan’s monthly allowance (UTC month); voice minutes and LLM tokens are listed but do not. On `pro` and `enterprise` there is no allowance: every message is paid.',
    access: 'tenant',
    success: { status: 200, description: 'The month so far.', schema: 'MonthUsage' },
  })
  @Get('usage/month')
  monthUsage(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<MonthUsageRecord> {
    return this.rpc.request('billing.month-usage', { tenant_id: tenantId }, { requestId });
  }

  @ApiRoute({
    summary: 'What a number of sends would cost now (a campaign’s estimate before it starts)',
    description:
      'Priced as billing will charge each send: the template’s category (`marketing` for a template billing has not heard of), `service` for free-form WhatsApp text, `sms` and `email` by channel, at the tenant’s plan; what is left of the free allowance is taken off first. Reads only: nothing is held.',
    access: 'tenant',
    query: EstimateQueryDto,
    success: { status: 200, description: 'The estimate.', schema: 'CostEstimate' },
  })
  @Get('estimate')
  estimate(@Tenant() tenantId: string, @Query() query: EstimateQueryDto, @RequestId() requestId: string): Promise<CostEstimateRecord> {
    const template = query.template_name ? { name: query.template_name, language: query.template_language! } : null;
    return this.rpc.request('billing.estimate', { tenant_id: tenantId, channel: query.channel, template, quantity: Number(query.quantity) }, { requestId });
  }

  @ApiRoute({
    summary: 'The wallet’s ledger, newest first: top-ups, holds and charges per message, releases and refunds, adjustments',
    access: 'tenant',
    query: ListQueryDto,
    success: { status: 200, description: 'A page of ledger transactions.', schema: 'LedgerTransactionPage' },
  })
  @Get('transactions')
  transactions(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<LedgerTransactionRecord>> {
    return this.rpc.request('billing.transactions', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({
    summary: 'Top up the wallet: a checkout with the payment provider',
    description:
      'Creates a Checkout Session with the payment provider (a Stripe-compatible API; the sandbox plays it in development). The wallet is credited once the provider’s signed webhook says the checkout was paid.',
    access: 'tenant',
    body: CreateTopUpBody,
    success: { status: 201, description: 'Where to pay.', schema: 'TopUp' },
    errors: [503],
  })
  @Post('top-ups')
  @HttpCode(201)
  topUp(@Tenant() tenantId: string, @Body() body: CreateTopUpBody, @RequestId() requestId: string): Promise<TopUpRecord> {
    return this.rpc.request('billing.create-top-up', { tenant_id: tenantId, body }, { requestId });
  }

  @ApiRoute({
    summary: 'A paid top-up’s receipt as PDF',
    description: 'The top-up’s id is the `cause_id` of its `top_up` transaction. A top-up not paid yet has no receipt (404).',
    access: 'tenant',
    success: { status: 200, description: 'The receipt.', contentType: 'application/pdf', schema: { type: 'string', format: 'binary' } },
    errors: [404],
  })
  @Get('top-ups/:id/receipt.pdf')
  async receipt(@Tenant() tenantId: string, @Param('id') id: string, @RequestId() requestId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    if (!/^top_[0-9A-Za-z]{1,40}$/.test(id)) throw new ProblemException(notFoundProblem('The receipt'));
    return pdfDownload(reply, await this.rpc.request('billing.top-up-receipt-pdf', { tenant_id: tenantId, top_up_id: id }, { requestId }));
  }

  @ApiRoute({
    summary: 'Monthly invoices, newest first',
    access: 'tenant',
    query: ListQueryDto,
    success: { status: 200, description: 'A page of invoices.', schema: 'InvoicePage' },
  })
  @Get('invoices')
  invoices(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<InvoiceRecord>> {
    return this.rpc.request('billing.invoices', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({
    summary: 'Invoice the current month so far',
    description: 'Closes the period since the last invoice (or the month’s start) now, with the next number; an ended month not invoiced yet is closed first.',
    access: 'tenant',
    success: { status: 201, description: 'The invoice.', schema: 'Invoice' },
  })
  @Post('invoices')
  @HttpCode(201)
  issueInvoice(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<InvoiceRecord> {
    return this.rpc.request('billing.issue-invoice', { tenant_id: tenantId }, { requestId });
  }

  @ApiRoute({
    summary: 'One invoice (`inv_…`), or its PDF (`inv_….pdf`)',
    access: 'tenant',
    success: { status: 200, description: 'The invoice as JSON, or with the `.pdf` suffix as application/pdf.', schema: 'Invoice' },
    errors: [404],
  })
  @Get('invoices/:file')
  async invoice(@Tenant() tenantId: string, @Param('file') file: string, @RequestId() requestId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<InvoiceRecord | Buffer> {
    const [, invoiceId, pdf] = /^(inv_[0-9A-Za-z]{1,40})(\.pdf)?$/.exec(file) ?? [];
    if (!invoiceId) throw new ProblemException(notFoundProblem('The invoice'));
    if (!pdf) return this.rpc.request('billing.invoice', { tenant_id: tenantId, invoice_id: invoiceId }, { requestId });
    return pdfDownload(reply, await this.rpc.request('billing.invoice-pdf', { tenant_id: tenantId, invoice_id: invoiceId }, { requestId }));
  }
}
