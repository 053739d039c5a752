import { Module } from '@nestjs/common';
import { EndpointsRpcController } from './endpoints.rpc.controller';
import { EndpointsService } from './endpoints.service';
import { EndpointsStore } from './endpoints.store';

@Module({ controllers: [EndpointsRpcController], providers: [EndpointsService, EndpointsStore], exports: [EndpointsService] })
export class EndpointsModule {}
