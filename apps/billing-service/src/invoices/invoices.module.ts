import { Module } from '@nestjs/common';
import { InvoicesRpcController } from './invoices.rpc.controller';
import { InvoicesService } from './invoices.service';
import { InvoicesStore } from './invoices.store';
import { MonthlyInvoicesJob } from './monthly-invoices.job';

@Module({ controllers: [InvoicesRpcController], providers: [InvoicesService, InvoicesStore, MonthlyInvoicesJob], exports: [InvoicesService] })
export class InvoicesModule {}
