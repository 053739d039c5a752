import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { BackgroundWorker, WorkerLoop } from '@parley/service-kit';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { AgentTestsService, MAX_TESTS_PER_AGENT, testsCompletedEvent } from './agent-tests.service';
import { TestRunsQueued } from './agent-tests-store.module';
import { AgentTestsStore, type ClaimedRun } from './agent-tests.store';
import { comparedWithPrevious } from './test-expectation';

/** A run's lease: a set of 200 cases answered twice takes seconds; an instance that dies mid-run loses it after this. */
const LEASE_SECONDS = 120;
/** Looks for runs no wake-up announced (another instance queued them, or one died holding a lease). */
const SWEEP_MS = 10_000;

/**
 * Runs the queued test runs, one at a time per instance (CONTRACT.md §19): the set as it is now, against the version
 * the run is for and against the one before it, so `fixed` and `broken` compare like with like (a run queued by a
 * documents change, which has no version before it, compares with the agent's run before it); the outcome and
 * `agent.tests_completed` are written in one transaction. A run whose lease ran out (a crash) is run again.
 */
@Injectable()
export class TestRunWorker extends BackgroundWorker {
  private readonly logger = new Logger(TestRunWorker.name);
  private readonly owner = randomUUID();
  protected readonly loop = new WorkerLoop({
    name: 'test runs',
    pass: async () => {
      const run = await this.runs.claim(this.owner, LEASE_SECONDS);
      if (!run) return this.runs.nextDueInMs();
      await this.runOne(run);
      return 'more';
    },
    sweepMs: SWEEP_MS,
    logger: this.logger,
  });

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly runs: AgentTestsStore,
    private readonly tests: AgentTestsService,
    private readonly relay: OutboxRelay,
    queued: TestRunsQueued,
  ) {
    super();
    queued.onQueued(() => this.loop.wake());
  }

  private async runOne(run: ClaimedRun): Promise<void> {
    const set = await this.runs.all(run.tenantId, run.agentName, MAX_TESTS_PER_AGENT);
    const cases = await this.tests.runSet(run.tenantId, run.agent, set);
    // a new version is compared with the one it replaces, on this set; a documents change with the run before it
    const before = run.previousAgent
      ? { version: run.previousAgent.version, cases: await this.tests.runSet(run.tenantId, run.previousAgent, set) }
      : await this.runs.casesBefore(run);
    if (this.loop.stopping) return;
    const completed = await this.relay.relayAfter(
      (work) => this.db.transaction(work),
      async (tx) => {
        const done = await this.runs.complete(tx, this.owner, run.id, { cases, ...comparedWithPrevious(cases, before?.cases ?? null), comparedVersion: before?.version ?? null });
        if (done) await enqueueEvents(tx, [testsCompletedEvent(run.tenantId, done)]);
        return done;
      },
    );
    if (completed) {
      this.logger.log(`tests of ${run.agentName} v${run.version}: ${completed.passed} passed, ${completed.failed} failed`);
    }
  }
}
