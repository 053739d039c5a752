import { Module } from '@nestjs/common';
import { CallEndedConsumer } from './call-ended.consumer';
import { ContactNamesConsumer } from './contact-names.consumer';
import { ContactNamesStore } from './contact-names.store';
import { ConversationsStore } from './conversations.store';
import { ConversationsRpcController } from './conversations.rpc.controller';
import { ConversationsService } from './conversations.service';
import { InboxService } from './inbox.service';
import { OutboxModule } from '../outbox/outbox.module';
import { RoutingQueued } from './routing-queued';
import { SentMessagesConsumer } from './sent-messages.consumer';

@Module({ imports: [OutboxModule], controllers: [ConversationsRpcController, SentMessagesConsumer, CallEndedConsumer, ContactNamesConsumer], providers: [ConversationsService, ConversationsStore, InboxService, ContactNamesStore, RoutingQueued], exports: [ConversationsService, ConversationsStore, RoutingQueued] })
export class ConversationsModule {}
