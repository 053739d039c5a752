import type { EventEnvelope } from './envelope';

/** What a test case expects of the agent's reply (CONTRACT.md §19); every key given must hold. */
export interface AgentTestExpectation {
  contains?: string;
  skill?: string;
  handoff?: boolean;
  no_answer?: boolean;
}

/** One case of an agent's test set (CONTRACT.md §19). */
export interface AgentTestRecord {
  id: string;
  agent: string;
  message: string;
  expect: AgentTestExpectation;
  created_at: string;
}

export const AGENT_TEST_RUN_STATUSES = ['queued', 'running', 'completed'] as const;
export type AgentTestRunStatus = (typeof AGENT_TEST_RUN_STATUSES)[number];

/** One case of a run: whether the reply met the expectation, the reply, and what did not hold. */
export interface AgentTestCaseResult {
  test_id: string;
  message: string;
  ok: boolean;
  reply: string;
  /** What of the expectation did not hold (empty when ok). */
  failures: string[];
}

/**
 * The test set run against one version of an agent (CONTRACT.md §19). `fixed` and `broken`: the cases this version
 * passes that the previous one failed, and the other way round (both versions run on the set as it was at this run).
 */
export interface AgentTestRunRecord {
  id: string;
  agent: string;
  version: number;
  /** What ran it: a new version of the agent, or a change of its documents (which makes no new version). */
  trigger: 'version' | 'documents';
  status: AgentTestRunStatus;
  passed: number;
  failed: number;
  cases: AgentTestCaseResult[];
  fixed: string[];
  broken: string[];
  /**
   * The version compared with: the one replaced, or for a documents change this version's run before it (null: nothing
   * to compare with, a first run).
   */
  previous_version: number | null;
  created_at: string;
  completed_at: string | null;
}

/** `agent.tests_completed` (public webhook body): a version's test run finished. */
export interface AgentTestsCompletedData {
  event: 'agent.tests_completed';
  tenant_id: string;
  agent: string;
  run: AgentTestRunRecord;
  at: string;
}

export type AgentTestsCompletedEvent = EventEnvelope<'agent.tests_completed', AgentTestsCompletedData>;
