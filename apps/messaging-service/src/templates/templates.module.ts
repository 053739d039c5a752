import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { OptOutsModule } from '../opt-outs/opt-outs.module';
import { GraphTemplatesClient } from './graph-templates.client';
import { TemplatesRpcController } from './templates.rpc.controller';
import { TemplatesService } from './templates.service';
import { TemplatesStore } from './templates.store';

@Module({
  imports: [ChannelsModule, OptOutsModule],
  controllers: [TemplatesRpcController],
  providers: [TemplatesService, TemplatesStore, GraphTemplatesClient],
  exports: [TemplatesService],
})
export class TemplatesModule {}
