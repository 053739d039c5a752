import { Module } from '@nestjs/common';
import { AdminGuard } from '../admin/admin.guard';
import { TenantsModule } from '../identity/tenants/tenants.module';
import { BillingAdminController } from './billing-admin.controller';
import { BillingController } from './billing.controller';
import { LlmSettingsController } from '../llm-settings/llm-settings.controller';
import { SendFundsService } from './send-funds.service';

@Module({ imports: [TenantsModule], controllers: [BillingController, BillingAdminController, LlmSettingsController], providers: [AdminGuard, SendFundsService], exports: [SendFundsService] })
export class BillingModule {}
