import { BalanceViewModule } from '../balance-view/balance-view.module';
import { Module } from '@nestjs/common';
import { PricesRpcController } from './prices.rpc.controller';
import { PricesService } from './prices.service';
import { PricesStore } from './prices.store';

@Module({ imports: [BalanceViewModule], controllers: [PricesRpcController], providers: [PricesService, PricesStore], exports: [PricesStore] })
export class PricesModule {}
