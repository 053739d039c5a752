import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AgentDocumentsModule } from '../documents/agent-documents.module';
import { AgentAnalyticsService } from './agent-analytics.service';
import { AnalyticsRpcController } from './analytics.rpc.controller';
import { ReplyOutcomesStore } from './reply-outcomes.store';

/** What agent replies did, written with each reply (ReplyOutcomesStore) and read as an agent's analytics. */
@Module({ imports: [AgentsModule, AgentDocumentsModule], controllers: [AnalyticsRpcController], providers: [AgentAnalyticsService, ReplyOutcomesStore], exports: [ReplyOutcomesStore] })
export class AnalyticsModule {}
