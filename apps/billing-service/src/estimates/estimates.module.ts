import { Module } from '@nestjs/common';
import { PricesModule } from '../prices/prices.module';
import { MonthUsageModule } from '../usage/month-usage.module';
import { WalletModule } from '../wallet/wallet.module';
import { EstimatesRpcController } from './estimates.rpc.controller';
import { EstimatesService } from './estimates.service';
import { EstimatesStore } from './estimates.store';

@Module({ imports: [PricesModule, WalletModule, MonthUsageModule], controllers: [EstimatesRpcController], providers: [EstimatesService, EstimatesStore] })
export class EstimatesModule {}
