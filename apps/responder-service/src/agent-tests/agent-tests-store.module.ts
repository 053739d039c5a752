import { Injectable, Module } from '@nestjs/common';
import { AgentTestsStore } from './agent-tests.store';

/** Says "a run was queued" to this instance's worker, which another module holds (other instances find it by their sweep). */
@Injectable()
export class TestRunsQueued {
  private readonly listeners: (() => void)[] = [];

  onQueued(listener: () => void): void {
    this.listeners.push(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * The test sets' store, apart from the module that runs them: the agents read model queues a version's run as it takes
 * the version, and the runner needs the reply engine, which needs the read model.
 */
@Module({ providers: [AgentTestsStore, TestRunsQueued], exports: [AgentTestsStore, TestRunsQueued] })
export class AgentTestsStoreModule {}
