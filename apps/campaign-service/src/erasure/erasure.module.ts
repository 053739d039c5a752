import { Module } from '@nestjs/common';
import { CampaignsStore } from '../campaigns/campaigns.store';
import { ContactErasureConsumer } from './contact-erasure.consumer';
import { ContactErasureService } from './contact-erasure.service';

@Module({ controllers: [ContactErasureConsumer], providers: [ContactErasureService, CampaignsStore] })
export class ErasureModule {}
