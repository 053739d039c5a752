import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { OutboxModule } from '../outbox/outbox.module';
import { FeedbackStore } from './feedback.store';
import { GapsRpcController } from './gaps.rpc.controller';
import { GapsService } from './gaps.service';
import { GapsStore } from './gaps.store';

/** Knowledge gaps and the verdicts on agent replies (CONTRACT.md §19); the reply flow records gaps through GapsService. */
@Module({ imports: [OutboxModule, ConversationsModule, AgentsModule], controllers: [GapsRpcController], providers: [GapsService, GapsStore, FeedbackStore], exports: [GapsService] })
export class GapsModule {}
