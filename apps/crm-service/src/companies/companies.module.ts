import { Module } from '@nestjs/common';
import { CompaniesRpcController } from './companies.rpc.controller';
import { CompaniesService } from './companies.service';
import { CompaniesStore } from './companies.store';

@Module({ controllers: [CompaniesRpcController], providers: [CompaniesService, CompaniesStore] })
export class CompaniesModule {}
