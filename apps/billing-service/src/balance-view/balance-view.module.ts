import { Module } from '@nestjs/common';
import { BalanceView } from './balance-view';

@Module({ providers: [BalanceView], exports: [BalanceView] })
export class BalanceViewModule {}
