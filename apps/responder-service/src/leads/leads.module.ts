import { Module } from '@nestjs/common';
import { LeadsRpcController } from './leads.rpc.controller';
import { LeadsService } from './leads.service';

@Module({ controllers: [LeadsRpcController], providers: [LeadsService], exports: [LeadsService] })
export class LeadsModule {}
