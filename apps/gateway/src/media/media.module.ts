import { Module } from '@nestjs/common';
import { createMediaStore } from '@parley/service-kit';
import { GatewayConfig } from '../config/gateway.config';
import { MediaController } from './media.controller';
import { MEDIA_STORE, MediaService } from './media.service';

@Module({
  controllers: [MediaController],
  providers: [MediaService, { provide: MEDIA_STORE, useFactory: (config: GatewayConfig) => createMediaStore(config), inject: [GatewayConfig] }],
})
export class MediaModule {}
