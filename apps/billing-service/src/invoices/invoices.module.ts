import { Module } from '@nestjs/common';
import { InvoicesRpcController } from './invoices.rpc.controller';
import { InvoicesService } from './invoices.service';
import { MonthlyInvoicesJob } from './monthly-invoices.job';

@Module({ controllers: [InvoicesRpcController], providers: [InvoicesService, MonthlyInvoicesJob], exports: [InvoicesService] })
export class InvoicesModule {}
