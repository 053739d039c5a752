import { Module } from '@nestjs/common';
import { LeadsRpcController } from './leads.rpc.controller';
import { LeadsStore } from './leads.store';

@Module({ controllers: [LeadsRpcController], providers: [LeadsStore], exports: [LeadsStore] })
export class LeadsModule {}
