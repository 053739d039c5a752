import { Module } from '@nestjs/common';
import { EndpointsRpcController } from './endpoints.rpc.controller';
import { EndpointsService } from './endpoints.service';

@Module({ controllers: [EndpointsRpcController], providers: [EndpointsService], exports: [EndpointsService] })
export class EndpointsModule {}
