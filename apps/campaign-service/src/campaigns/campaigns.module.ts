import { Module } from '@nestjs/common';
import { AudienceResolver } from '../audience/audience.resolver';
import { CampaignResultsConsumer } from '../results/campaign-results.consumer';
import { CampaignResultsService } from '../results/campaign-results.service';
import { CampaignSenderWorker } from '../sending/campaign-sender.worker';
import { CampaignStartService } from './campaign-start.service';
import { CampaignsRpcController } from './campaigns.rpc.controller';
import { CampaignsService } from './campaigns.service';

@Module({
  controllers: [CampaignsRpcController, CampaignResultsConsumer],
  providers: [CampaignsService, CampaignStartService, AudienceResolver, CampaignSenderWorker, CampaignResultsService],
})
export class CampaignsModule {}
