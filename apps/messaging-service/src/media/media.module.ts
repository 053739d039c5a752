import { Module } from '@nestjs/common';
import { createMediaStore } from '@parley/service-kit';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { MediaRecordsStore } from './media-records.store';
import { MediaRetention } from './media-retention';
import { MediaRpcController } from './media.rpc.controller';
import { MEDIA_STORE, MediaService } from './media.service';
import { ProviderMediaService } from './provider-media.service';
import { ProviderMediaStore } from './provider-media.store';

/** Media records and the shared media store (CONTRACT.md §13). */
@Module({
  controllers: [MediaRpcController],
  providers: [MediaService, MediaRecordsStore, ProviderMediaService, ProviderMediaStore, MediaRetention, { provide: MEDIA_STORE, useFactory: (config: MessagingServiceConfig) => createMediaStore(config), inject: [MessagingServiceConfig] }],
  exports: [MediaService, ProviderMediaService],
})
export class MediaModule {}
