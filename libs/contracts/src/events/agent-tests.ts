import type { Skill } from './agents';
import type { EventEnvelope } from './envelope';

/** What a test case expects of the agent's reply (CONTRACT.md §19); every key given must hold. */
export interface AgentTestExpectation {
  /** The reply contains this text (case and accents aside). */
  contains?: string;
  /** The skill that answered. */
  skill?: Skill;
  /** The agent hands the conversation to a person (true) or not. */
  handoff?: boolean;
  /** The agent says it does not know (true) or answers. */
  no_answer?: boolean;
}

/** One case of an agent's test set (CONTRACT.md §19). */
export interface AgentTestRecord {
  /** @idPrefix tst */
  id: string;
  /** The agent's name. */
  agent: string;
  /** What the customer writes. */
  message: string;
  expect: AgentTestExpectation;
  created_at: string;
}

export const AGENT_TEST_RUN_STATUSES = ['queued', 'running', 'completed'] as const;
export type AgentTestRunStatus = (typeof AGENT_TEST_RUN_STATUSES)[number];

/** One case of a run: whether the reply met the expectation, the reply, and what did not hold. */
export interface AgentTestCaseResult {
  /** @idPrefix tst */
  test_id: string;
  message: string;
  ok: boolean;
  /** @apiDescription What the agent answered (as the first reply of a new conversation). */
  reply: string;
  /** What of the expectation did not hold (empty when ok). */
  failures: string[];
}

/**
 * The test set run against one version of an agent (CONTRACT.md §19). `fixed` and `broken`: the cases this version
 * passes that the previous one failed, and the other way round (both versions run on the set as it was at this run).
 */
export interface AgentTestRunRecord {
  /** @idPrefix run */
  id: string;
  agent: string;
  /**
   * @apiType integer
   * @apiDescription The agent version the set ran against.
   */
  version: number;
  /**
   * What ran it: a new version of the agent, or a change of its documents (which makes no new version).
   * @apiDescription What ran it: a new version of the agent, or a change of its documents (no new version; compared with the run before it).
   */
  trigger: 'version' | 'documents';
  status: AgentTestRunStatus;
  /** @apiType integer */
  passed: number;
  /** @apiType integer */
  failed: number;
  /** @apiDescription Each case of the set as it was when the run began, oldest first. */
  cases: AgentTestCaseResult[];
  /**
   * @idPrefix tst
   * @apiDescription Cases this version passes that the previous version failed.
   */
  fixed: string[];
  /**
   * @idPrefix tst
   * @apiDescription Cases the previous version passed that this one fails.
   */
  broken: string[];
  /**
   * The version compared with: the one replaced, or for a documents change this version's run before it (null: nothing
   * to compare with, a first run).
   * @apiType integer
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
