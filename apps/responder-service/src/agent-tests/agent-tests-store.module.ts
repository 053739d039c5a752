import { Injectable, Module } from '@nestjs/common';
import { QueueSignal } from '@parley/service-kit';
import { AgentTestsStore } from './agent-tests.store';

/** Says "a run was queued" to this instance's worker, which another module holds (other instances find it by their sweep). */
@Injectable()
export class TestRunsQueued extends QueueSignal {}

/**
 * The test sets' store, apart from the module that runs them: the agents read model queues a version's run as it takes
 * the version, and the runner needs the reply engine, which needs the read model.
 */
@Module({ providers: [AgentTestsStore, TestRunsQueued], exports: [AgentTestsStore, TestRunsQueued] })
export class AgentTestsStoreModule {}
