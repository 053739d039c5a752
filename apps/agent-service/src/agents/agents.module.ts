import { Module } from '@nestjs/common';
import { AgentsRpcController } from './agents.rpc.controller';
import { AgentsService } from './agents.service';

@Module({ controllers: [AgentsRpcController], providers: [AgentsService], exports: [AgentsService] })
export class AgentsModule {}
