import { Module, type DynamicModule } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { OutboxModule } from '../outbox/outbox.module';
import { AgentTestsStoreModule } from './agent-tests-store.module';
import { AgentTestsRpcController } from './agent-tests.rpc.controller';
import { AgentTestsService } from './agent-tests.service';
import { TestRunWorker } from './test-run.worker';

/**
 * An agent's test set and its runs (CONTRACT.md §19). `replies` is the app's one RepliesModule: the cases are answered
 * by the same engine as customers.
 */
@Module({})
export class AgentTestsModule {
  static forRoot(replies: DynamicModule): DynamicModule {
    return {
      module: AgentTestsModule,
      imports: [replies, AgentsModule, AgentTestsStoreModule, OutboxModule],
      controllers: [AgentTestsRpcController],
      providers: [AgentTestsService, TestRunWorker],
    };
  }
}
