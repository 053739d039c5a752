import { BalanceViewModule } from '../balance-view/balance-view.module';
import { Module } from '@nestjs/common';
import { PricesModule } from '../prices/prices.module';
import { WalletModule } from '../wallet/wallet.module';
import { ChargesService } from './charges.service';
import { LlmSpend } from './llm-spend';
import { MeteringConsumer } from './metering.consumer';
import { MeteringService } from './metering.service';
import { UsageRpcController } from './usage.rpc.controller';

@Module({ imports: [BalanceViewModule, PricesModule, WalletModule], controllers: [MeteringConsumer, UsageRpcController], providers: [MeteringService, ChargesService, LlmSpend], exports: [ChargesService] })
export class MeteringModule {}
