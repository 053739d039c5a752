import { BalanceViewModule } from '../balance-view/balance-view.module';
import { Module } from '@nestjs/common';
import { PricesRpcController } from './prices.rpc.controller';
import { PricesService } from './prices.service';

@Module({ imports: [BalanceViewModule], controllers: [PricesRpcController], providers: [PricesService], exports: [PricesService] })
export class PricesModule {}
