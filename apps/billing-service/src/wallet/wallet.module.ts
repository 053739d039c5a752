import { BalanceViewModule } from '../balance-view/balance-view.module';
import { Module } from '@nestjs/common';
import { Outbox } from '../outbox/outbox';
import { WalletsRpcController } from './wallets.rpc.controller';
import { WalletsService } from './wallets.service';

@Module({ imports: [BalanceViewModule], controllers: [WalletsRpcController], providers: [WalletsService, Outbox], exports: [WalletsService, Outbox] })
export class WalletModule {}
