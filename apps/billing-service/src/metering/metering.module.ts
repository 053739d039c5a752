import { BalanceViewModule } from '../balance-view/balance-view.module';
import { Module } from '@nestjs/common';
import { PricesModule } from '../prices/prices.module';
import { WalletModule } from '../wallet/wallet.module';
import { ChargesService } from './charges.service';
import { ChargesStore } from './charges.store';
import { LlmSpend } from './llm-spend';
import { LlmSpendStore } from './llm-spend.store';
import { MeteringConsumer } from './metering.consumer';
import { MeteringService } from './metering.service';
import { MeteringStore } from './metering.store';
import { UsageRpcController } from './usage.rpc.controller';

@Module({
  imports: [BalanceViewModule, PricesModule, WalletModule],
  controllers: [MeteringConsumer, UsageRpcController],
  providers: [MeteringService, MeteringStore, ChargesService, ChargesStore, LlmSpend, LlmSpendStore],
  exports: [ChargesService, MeteringStore],
})
export class MeteringModule {}
