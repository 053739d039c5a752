import { Module } from '@nestjs/common';
import { ReportsRpcController } from './reports.rpc.controller';
import { ReportsService } from './reports.service';
import { ReportsStore } from './reports.store';

/** Conversation reports (CONTRACT.md §18), read from the conversations this service keeps. */
@Module({ controllers: [ReportsRpcController], providers: [ReportsService, ReportsStore] })
export class ReportsModule {}
