import type { AgentTestExpectation } from '@parley/contracts';

/** What of a reply a test case looks at. */
export interface TestedReply {
  text: string;
  skill: string | null;
  handoff: boolean;
  /** The agent said it did not know. */
  notKnown: boolean;
}

/** What of the expectation the reply does not meet, in words an owner reads (empty: the case passes). */
export function unmetExpectations(expect: AgentTestExpectation, reply: TestedReply): string[] {
  const failures: string[] = [];
  if (expect.contains !== undefined && !fold(reply.text).includes(fold(expect.contains))) failures.push(`does not contain "${expect.contains}"`);
  if (expect.skill !== undefined && reply.skill !== expect.skill) failures.push(`answered by ${reply.skill ?? 'no skill'} (expected: ${expect.skill})`);
  if (expect.handoff !== undefined && reply.handoff !== expect.handoff) failures.push(expect.handoff ? 'does not hand off to a person' : 'hands off to a person');
  if (expect.no_answer !== undefined && reply.notKnown !== expect.no_answer) {
    failures.push(expect.no_answer ? 'answers (expected: says it does not know)' : 'says it does not know');
  }
  return failures;
}

/** Case and accents aside: "Café" contains "cafe". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The cases a run passes that the previous version failed (`fixed`), and the other way round (`broken`). */
export function comparedWithPrevious(now: readonly { test_id: string; ok: boolean }[], before: readonly { test_id: string; ok: boolean }[] | null): { fixed: string[]; broken: string[] } {
  if (!before) return { fixed: [], broken: [] };
  const was = new Map(before.map((c) => [c.test_id, c.ok]));
  return {
    fixed: now.filter((c) => c.ok && was.get(c.test_id) === false).map((c) => c.test_id),
    broken: now.filter((c) => !c.ok && was.get(c.test_id) === true).map((c) => c.test_id),
  };
}
