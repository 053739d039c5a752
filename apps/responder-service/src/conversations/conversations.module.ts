import { Module } from '@nestjs/common';
import { ConversationsRpcController } from './conversations.rpc.controller';
import { ConversationsService } from './conversations.service';

@Module({ controllers: [ConversationsRpcController], providers: [ConversationsService], exports: [ConversationsService] })
export class ConversationsModule {}
