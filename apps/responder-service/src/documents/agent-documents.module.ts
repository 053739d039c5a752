import { Module } from '@nestjs/common';
import { AgentTestsStoreModule } from '../agent-tests/agent-tests-store.module';
import { AgentsModule } from '../agents/agents.module';
import { AgentDocumentsConsumer } from './agent-documents.consumer';
import { AgentDocumentsService } from './agent-documents.service';
import { AgentDocumentsStore } from './agent-documents.store';

@Module({ imports: [AgentsModule, AgentTestsStoreModule], controllers: [AgentDocumentsConsumer], providers: [AgentDocumentsService, AgentDocumentsStore], exports: [AgentDocumentsService] })
export class AgentDocumentsModule {}
