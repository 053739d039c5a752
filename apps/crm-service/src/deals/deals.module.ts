import { Module } from '@nestjs/common';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { DealsRpcController } from './deals.rpc.controller';
import { DealsService } from './deals.service';
import { DealsStore } from './deals.store';
import { LeadDealsService } from './lead-deals.service';

@Module({ imports: [PipelinesModule], controllers: [DealsRpcController], providers: [DealsService, DealsStore, LeadDealsService], exports: [LeadDealsService] })
export class DealsModule {}
