import { Module } from '@nestjs/common';
import { MemberQuotaService } from './member-quota.service';
import { QuotaService } from './quota.service';

@Module({ providers: [QuotaService, MemberQuotaService], exports: [QuotaService, MemberQuotaService] })
export class QuotasModule {}
