import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { OutboxModule } from '../outbox/outbox.module';
import { FeedbackStore } from './feedback.store';
import { GapPlacer } from './gap-placer';
import { GapWorker } from './gap.worker';
import { GapsRpcController } from './gaps.rpc.controller';
import { GapsService } from './gaps.service';
import { GapsStore } from './gaps.store';

/** Knowledge gaps and the verdicts on agent replies (CONTRACT.md §19); the reply flow queues its questions through GapsService and GapWorker groups them. */
@Module({ imports: [OutboxModule, ConversationsModule, AgentsModule], controllers: [GapsRpcController], providers: [GapsService, GapsStore, FeedbackStore, GapPlacer, GapWorker], exports: [GapsService] })
export class GapsModule {}
