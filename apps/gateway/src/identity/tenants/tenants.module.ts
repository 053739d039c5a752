import { Module } from '@nestjs/common';
import { TenantPlansService } from './tenant-plans.service';

@Module({ providers: [TenantPlansService], exports: [TenantPlansService] })
export class TenantsModule {}
