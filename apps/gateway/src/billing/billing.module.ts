import { Module } from '@nestjs/common';
import { AdminGuard } from '../admin/admin.guard';
import { BillingAdminController } from './billing-admin.controller';
import { BillingController } from './billing.controller';

@Module({ controllers: [BillingController, BillingAdminController], providers: [AdminGuard] })
export class BillingModule {}
