import { Module } from '@nestjs/common';
import { ChannelChangesListener } from './channel-changes.listener';
import { ChannelSendersService } from './channel-senders.service';
import { ChannelsController } from './channels.controller';

@Module({ controllers: [ChannelsController], providers: [ChannelSendersService, ChannelChangesListener], exports: [ChannelSendersService] })
export class ChannelsModule {}
