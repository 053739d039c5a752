import { Body, Controller, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { AdjustWalletBody, SetPricesBody, type LedgerTransactionRecord, type PriceRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { AdminGuard } from '../admin/admin.guard';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

/** Operator routes of billing (`Authorization: Bearer $ADMIN_TOKEN`). */
@Controller('admin/v1')
@UseGuards(AdminGuard)
export class BillingAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({ summary: 'Set prices of the price book (operators); lines not given keep theirs', access: 'admin', body: SetPricesBody, success: { status: 200, description: 'Every price.', schema: 'PriceList' } })
  @Put('prices')
  setPrices(@Body() body: SetPricesBody, @RequestId() requestId: string): Promise<{ data: PriceRecord[] }> {
    return this.rpc.request('billing.set-prices', { body }, { requestId });
  }

  @ApiRoute({
    summary: 'Credit (+) or debit (−) a tenant’s wallet (operators); once per reference',
    access: 'admin',
    body: AdjustWalletBody,
    success: { status: 201, description: 'The ledger transaction.', schema: 'LedgerTransaction' },
    errors: [409],
  })
  @Post('tenants/:tenant_id/wallet/adjustments')
  @HttpCode(201)
  adjust(
    @Param('tenant_id', new PrefixedIdPipe('ten', 'Tenant')) tenantId: string,
    @Body() body: AdjustWalletBody,
    @RequestId() requestId: string,
  ): Promise<LedgerTransactionRecord> {
    return this.rpc.request('billing.adjust', { tenant_id: tenantId, body }, { requestId });
  }
}
