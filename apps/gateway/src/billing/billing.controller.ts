import { Controller, Get, Query } from '@nestjs/common';
import type { LedgerTransactionRecord, Page, PriceRecord, WalletRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { MANAGERS, Roles } from '../auth/roles';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

/** The tenant's prices, wallet and ledger (CONTRACT.md §16), owned by billing-service. */
@Controller('api/v1/billing')
@Roles(...MANAGERS)
export class BillingController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({ summary: 'The price book: a unit price per plan and category', access: 'tenant', success: { status: 200, description: 'Every price.', schema: 'PriceList' } })
  @Get('prices')
  prices(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<{ data: PriceRecord[] }> {
    return this.rpc.request('billing.prices', { tenant_id: tenantId }, { requestId });
  }

  @ApiRoute({ summary: 'The prepaid wallet: balance, currency, low-balance threshold', access: 'tenant', success: { status: 200, description: 'The wallet.', schema: 'Wallet' } })
  @Get('wallet')
  wallet(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<WalletRecord> {
    return this.rpc.request('billing.wallet', { tenant_id: tenantId }, { requestId });
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
}
