import { Module } from '@nestjs/common';
import { ConversationsRpcController } from './conversations.rpc.controller';
import { ConversationsService } from './conversations.service';
import { InboxService } from './inbox.service';

@Module({ controllers: [ConversationsRpcController], providers: [ConversationsService, InboxService], exports: [ConversationsService] })
export class ConversationsModule {}
