import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { OptOutsModule } from '../opt-outs/opt-outs.module';
import { GraphTemplatesClient } from './graph-templates.client';
import { TemplatesRpcController } from './templates.rpc.controller';
import { TemplatesService } from './templates.service';

@Module({
  imports: [ChannelsModule, OptOutsModule],
  controllers: [TemplatesRpcController],
  providers: [TemplatesService, GraphTemplatesClient],
  exports: [TemplatesService],
})
export class TemplatesModule {}
