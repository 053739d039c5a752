import { Module } from '@nestjs/common';
import { WalletModule } from '../wallet/wallet.module';
import { MonthUsageRpcController } from './month-usage.rpc.controller';
import { MonthUsageService } from './month-usage.service';
import { MonthUsageStore } from './month-usage.store';

@Module({ imports: [WalletModule], controllers: [MonthUsageRpcController], providers: [MonthUsageStore, MonthUsageService], exports: [MonthUsageService] })
export class MonthUsageModule {}
