import type { ParleyClient, components } from '@parley/api-client';
import { ApiError, unwrap } from './http';
import type { AgentBody } from './types';

// An agent's test set (CONTRACT.md §19): customers' messages and what the reply must be, run against every new version
// of the agent in the background; a save can also require them to pass first.

export type AgentTestCase = components['schemas']['AgentTest'];
export type AgentTestExpectation = components['schemas']['AgentTestExpectationDto'];
export type AgentTestRun = components['schemas']['AgentTestRun'];
/** One case of a run, or of a save the tests refused: the reply the agent gave and what of the expectation did not hold. */
export type AgentTestCaseResult = AgentTestRun['cases'][number];

/** `PUT …?require_tests=pass` refused: a case fails with the new body, which was not saved (409 `…/tests-failed`). */
export class TestsFailedError extends ApiError {
  constructor(
    message: string,
    readonly failing: AgentTestCaseResult[],
  ) {
    super(409, message);
  }
}

const TESTS_FAILED = /\/tests-failed$/;

/** The problem's own member `failing` (RFC 9457 extension), read for what it holds: the client types the 409 as a plain problem. */
function failingCases(problem: object): AgentTestCaseResult[] {
  const failing: unknown[] = 'failing' in problem && Array.isArray(problem.failing) ? problem.failing : [];
  return failing.filter(isCaseResult);
}

function isCaseResult(value: unknown): value is AgentTestCaseResult {
  if (typeof value !== 'object' || value === null) return false;
  const c: Partial<Record<keyof AgentTestCaseResult, unknown>> = value;
  return typeof c.test_id === 'string' && typeof c.message === 'string' && typeof c.reply === 'string' && typeof c.ok === 'boolean' && Array.isArray(c.failures);
}

export function createAgentTestsApi(api: ParleyClient) {
  const path = (agent_name: string) => ({ path: { agent_name } });
  return {
    /** Every test case of the agent (at most 200, so at most two pages), oldest first. */
    listAgentTests: async (agent_name: string): Promise<AgentTestCase[]> => {
      const cases: AgentTestCase[] = [];
      let cursor: string | undefined;
      do {
        const page = await unwrap(api.GET('/api/v1/agents/{agent_name}/tests', { params: { ...path(agent_name), query: { limit: 100, cursor } } }));
        cases.push(...page.data);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return cases;
    },
    addAgentTest: (agent_name: string, message: string, expect: AgentTestExpectation) =>
      unwrap(api.POST('/api/v1/agents/{agent_name}/tests', { params: path(agent_name), body: { message, expect } })),
    deleteAgentTest: (agent_name: string, id: string) => unwrap(api.DELETE('/api/v1/agents/{agent_name}/tests/{id}', { params: { path: { agent_name, id } } })),
    /** The run of the set against one version; null when the agent had no tests when that version was saved (404). */
    agentTestRun: async (agent_name: string, version: number): Promise<AgentTestRun | null> => {
      try {
        return await unwrap(api.GET('/api/v1/agents/{agent_name}/versions/{version}/test-run', { params: { path: { agent_name, version: String(version) } } }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    /** Saves the agent only if every test case passes with the new body; a failing case throws a TestsFailedError. */
    putAgentIfTestsPass: async (body: AgentBody) => {
      const call = api.PUT('/api/v1/agents/{agent_name}', { params: { path: { agent_name: body.name }, query: { require_tests: 'pass' } }, body });
      const answer = await call.catch(() => undefined);
      if (answer?.response.status === 409 && answer.error && TESTS_FAILED.test(answer.error.type)) throw new TestsFailedError(answer.error.detail, failingCases(answer.error));
      return unwrap(call);
    },
  };
}
