import { BalanceViewModule } from '../balance-view/balance-view.module';
import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module';
import { LedgerStore } from './ledger.store';
import { WalletsRpcController } from './wallets.rpc.controller';
import { WalletsService } from './wallets.service';
import { WalletsStore } from './wallets.store';

@Module({
  imports: [BalanceViewModule, OutboxModule],
  controllers: [WalletsRpcController],
  providers: [WalletsService, WalletsStore, LedgerStore],
  exports: [WalletsService, OutboxModule],
})
export class WalletModule {}
