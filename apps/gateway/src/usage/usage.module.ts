import { Module } from '@nestjs/common';
import { QuotasModule } from '../quotas/quotas.module';
import { TenantsModule } from '../identity/tenants/tenants.module';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

@Module({ imports: [QuotasModule, TenantsModule], controllers: [UsageController], providers: [UsageService] })
export class UsageModule {}
