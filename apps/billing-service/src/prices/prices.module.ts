import { Module } from '@nestjs/common';
import { PricesRpcController } from './prices.rpc.controller';
import { PricesService } from './prices.service';

@Module({ controllers: [PricesRpcController], providers: [PricesService], exports: [PricesService] })
export class PricesModule {}
