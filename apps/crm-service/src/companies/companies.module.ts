import { Module } from '@nestjs/common';
import { CompaniesRpcController } from './companies.rpc.controller';
import { CompaniesService } from './companies.service';

@Module({ controllers: [CompaniesRpcController], providers: [CompaniesService] })
export class CompaniesModule {}
