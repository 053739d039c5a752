import { Module } from '@nestjs/common';
import { BalanceView } from './balance-view';
import { BalanceViewStore } from './balance-view.store';

@Module({ providers: [BalanceView, BalanceViewStore], exports: [BalanceView] })
export class BalanceViewModule {}
