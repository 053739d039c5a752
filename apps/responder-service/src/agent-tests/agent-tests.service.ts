import { Injectable } from '@nestjs/common';
import {
  ProblemTypes,
  Topics,
  derivedId,
  newId,
  notFoundProblem,
  problem,
  type AgentRecord,
  type AgentTestCaseResult,
  type AgentTestExpectation,
  type AgentTestRecord,
  type AgentTestRunRecord,
  type AgentTestsCompletedData,
  type Page,
  type UpsertAgentBody,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ListCursors, ProblemException } from '@parley/service-kit';
import { AgentsService } from '../agents/agents.service';
import type { StoredEvent } from '../replies/processed-message.entity';
import { RepliesService } from '../replies/replies.service';
import { AgentTestsStore } from './agent-tests.store';
import { unmetExpectations } from './test-expectation';

/** Cases per agent: a run asks the engine each of them twice (this version and the previous), in the background. */
export const MAX_TESTS_PER_AGENT = 200;
const MAX_PAGE = 200;

/** An agent's test set (CONTRACT.md §19): its cases, their runs per version, and the check before a PUT. */
@Injectable()
export class AgentTestsService {
  constructor(
    private readonly tests: AgentTestsStore,
    private readonly agents: AgentsService,
    private readonly replies: RepliesService,
    private readonly cursors: ListCursors,
  ) {}

  async create(tenantId: string, agent: string, message: string, expect: AgentTestExpectation): Promise<AgentTestRecord> {
    await this.liveAgent(tenantId, agent);
    if ((await this.tests.count(tenantId, agent)) >= MAX_TESTS_PER_AGENT) {
      throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `Agent "${agent}" has ${MAX_TESTS_PER_AGENT} tests, the most an agent may have; delete one first.`));
    }
    const { contains, skill, handoff, no_answer } = expect;
    const only = Object.fromEntries(Object.entries({ contains, skill, handoff, no_answer }).filter(([, v]) => v !== undefined)) as AgentTestExpectation;
    return this.tests.create(tenantId, newId('tst'), agent, message, only);
  }

  async list(tenantId: string, agent: string, limit: number, cursor: string | null): Promise<Page<AgentTestRecord>> {
    await this.liveAgent(tenantId, agent);
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, `agent-tests/${agent}`);
    const rows = await this.tests.page(tenantId, agent, take + 1, cursors.after(cursor));
    return { data: rows.slice(0, take), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  async delete(tenantId: string, agent: string, id: string): Promise<{ deleted: true }> {
    if (!(await this.tests.delete(tenantId, agent, id))) throw new ProblemException(notFoundProblem(`Test "${id}" of agent "${agent}"`));
    return { deleted: true };
  }

  async run(tenantId: string, agent: string, version: number): Promise<AgentTestRunRecord> {
    const run = await this.tests.findRun(tenantId, agent, version);
    if (!run) {
      throw new ProblemException(
        problem(404, ProblemTypes.notFound, 'Not Found', `Version ${version} of agent "${agent}" has no test run: a version runs the agent's tests when it is saved while the agent has some.`),
      );
    }
    return run;
  }

  /** The failing cases of the set against the agent as `body` would make it (`PUT …?require_tests=pass`); saves nothing. */
  async check(tenantId: string, agent: string, body: UpsertAgentBody): Promise<{ total: number; failing: AgentTestCaseResult[] }> {
    const live = await this.agents.liveAgent(tenantId, agent);
    const tests = await this.tests.all(tenantId, agent, MAX_TESTS_PER_AGENT);
    if (tests.length === 0) return { total: 0, failing: [] };
    const cases = await this.runSet(tenantId, candidate(agent, body, live), tests);
    return { total: cases.length, failing: cases.filter((c) => !c.ok) };
  }

  /** Each case's message asked of `agent` as a new conversation's first message, and whether the reply meets it. */
  async runSet(tenantId: string, agent: AgentRecord, tests: readonly AgentTestRecord[]): Promise<AgentTestCaseResult[]> {
    const results: AgentTestCaseResult[] = [];
    for (const test of tests) {
      const reply = await this.replies.firstReplyOf(tenantId, agent, test.message, null);
      const failures = unmetExpectations(test.expect, { text: reply.text, skill: reply.skill, handoff: reply.handoff, notKnown: reply.notKnown === true });
      results.push({ test_id: test.id, message: test.message, ok: failures.length === 0, reply: reply.text, failures });
    }
    return results;
  }

  private async liveAgent(tenantId: string, agent: string): Promise<AgentRecord> {
    const live = await this.agents.liveAgent(tenantId, agent);
    if (!live) throw new ProblemException(notFoundProblem(`Agent "${agent}"`));
    return live;
  }
}

/** The agent a PUT would save: the body over the live agent (a new one when there is none), one version on. */
function candidate(name: string, body: UpsertAgentBody, live: AgentRecord | null): AgentRecord {
  const now = new Date().toISOString();
  return {
    id: live?.id ?? 'agt_candidate',
    name,
    instruction: body.instruction,
    greeting: body.greeting,
    skills: [...body.skills],
    faqs: (body.faqs ?? []).map((f) => ({ question: f.question, answer: f.answer })),
    booking: body.booking ? { timezone: body.booking.timezone, slot_minutes: body.booking.slot_minutes, opening_hours: structuredClone(body.booking.opening_hours) } : null,
    version: (live?.version ?? 0) + 1,
    created_at: live?.created_at ?? now,
    updated_at: now,
  };
}

/** `agent.tests_completed`; its id derives from the run, so republishing cannot send it twice. */
export function testsCompletedEvent(tenantId: string, run: AgentTestRunRecord): StoredEvent {
  const data: AgentTestsCompletedData = { event: 'agent.tests_completed', tenant_id: tenantId, agent: run.agent, run, at: run.completed_at ?? new Date().toISOString() };
  return {
    topic: Topics.AgentTestsCompleted,
    key: `${tenantId}:${run.agent}`,
    value: EventPublisher.envelope(Topics.AgentTestsCompleted, tenantId, data, derivedId('evt', 'run', run.id)),
  };
}
