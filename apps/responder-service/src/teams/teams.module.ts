import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { OutboxModule } from '../outbox/outbox.module';
import { RoutingService } from './routing.service';
import { RoutingStore } from './routing.store';
import { RoutingWorker } from './routing.worker';
import { TeamsRpcController } from './teams.rpc.controller';
import { TeamsService } from './teams.service';
import { TeamsStore } from './teams.store';

/** Teams, routing rules, presence and the routing of handed-off conversations to members (CONTRACT.md §18). */
@Module({
  imports: [OutboxModule, ConversationsModule],
  controllers: [TeamsRpcController],
  providers: [TeamsService, TeamsStore, RoutingService, RoutingStore, RoutingWorker],
  exports: [RoutingService],
})
export class TeamsModule {}
