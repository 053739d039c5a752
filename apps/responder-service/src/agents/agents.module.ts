import { Module } from '@nestjs/common';
import { AgentTestsStoreModule } from '../agent-tests/agent-tests-store.module';
import { AgentsConsumer } from './agents.consumer';
import { AgentsService } from './agents.service';
import { AgentsStore } from './agents.store';

@Module({ imports: [AgentTestsStoreModule], controllers: [AgentsConsumer], providers: [AgentsService, AgentsStore], exports: [AgentsService] })
export class AgentsModule {}
