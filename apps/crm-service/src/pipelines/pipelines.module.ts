import { Module } from '@nestjs/common';
import { PipelinesRpcController } from './pipelines.rpc.controller';
import { PipelinesService } from './pipelines.service';

@Module({ controllers: [PipelinesRpcController], providers: [PipelinesService], exports: [PipelinesService] })
export class PipelinesModule {}
