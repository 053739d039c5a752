import { Module } from '@nestjs/common';
import { PipelinesRpcController } from './pipelines.rpc.controller';
import { PipelinesService } from './pipelines.service';
import { PipelinesStore } from './pipelines.store';

@Module({ controllers: [PipelinesRpcController], providers: [PipelinesService, PipelinesStore], exports: [PipelinesService] })
export class PipelinesModule {}
