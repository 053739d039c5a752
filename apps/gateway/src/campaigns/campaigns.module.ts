import { Module } from '@nestjs/common';
import { CampaignsController } from './campaigns.controller';

/** Campaigns (CONTRACT.md §15): owned by campaign-service, over request-reply. */
@Module({ controllers: [CampaignsController] })
export class CampaignsModule {}
