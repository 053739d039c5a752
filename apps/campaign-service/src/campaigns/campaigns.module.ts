import { Module } from '@nestjs/common';
import { AudienceResolver } from '../audience/audience.resolver';
import { CampaignResultsConsumer } from '../results/campaign-results.consumer';
import { CampaignResultsService } from '../results/campaign-results.service';
import { CampaignResultsStore } from '../results/campaign-results.store';
import { CampaignSenderWorker } from '../sending/campaign-sender.worker';
import { CampaignSendingStore } from '../sending/campaign-sending.store';
import { CampaignStartService } from './campaign-start.service';
import { CampaignsRpcController } from './campaigns.rpc.controller';
import { CampaignsService } from './campaigns.service';
import { CampaignsStore } from './campaigns.store';

@Module({
  controllers: [CampaignsRpcController, CampaignResultsConsumer],
  providers: [
    CampaignsService,
    CampaignsStore,
    CampaignStartService,
    AudienceResolver,
    CampaignSenderWorker,
    CampaignSendingStore,
    CampaignResultsService,
    CampaignResultsStore,
  ],
})
export class CampaignsModule {}
