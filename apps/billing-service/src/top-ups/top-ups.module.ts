import { Module } from '@nestjs/common';
import { BalanceViewModule } from '../balance-view/balance-view.module';
import { WalletModule } from '../wallet/wallet.module';
import { PaymentProvider } from './payment-provider';
import { TopUpsRpcController } from './top-ups.rpc.controller';
import { TopUpsService } from './top-ups.service';
import { TopUpsStore } from './top-ups.store';

@Module({ imports: [WalletModule, BalanceViewModule], controllers: [TopUpsRpcController], providers: [PaymentProvider, TopUpsService, TopUpsStore] })
export class TopUpsModule {}
