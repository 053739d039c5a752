import { ProblemTypes, problem, validationProblem, type AgentKnowledgeSource } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { Reply, ReplySource } from '../replies/reply-engine';
import type { DayRange, ReplyOutcomeKind } from './reply-outcomes.store';

/** What a reply did, for the agent's analytics: a handoff first, then not known, then answered from knowledge. */
export function outcomeOf(reply: Pick<Reply, 'handoff' | 'notKnown' | 'sources'>): ReplyOutcomeKind {
  if (reply.handoff) return 'handed_off';
  if (reply.notKnown) return 'not_known';
  return reply.sources?.length ? 'answered' : 'other';
}

/** The knowledge a reply used, a document counted once however many of its passages answered (`doc_…#3` → `doc_…`). */
export function knowledgeUsed(sources: readonly ReplySource[] = []): AgentKnowledgeSource[] {
  const used = new Map<string, AgentKnowledgeSource>();
  for (const s of sources) {
    const source: AgentKnowledgeSource =
      s.type === 'document' ? { type: 'document', id: s.id.split('#')[0], title: s.title.split(' › ')[0] } : s.type === 'instruction' ? { type: 'instruction', id: 'instruction', title: 'Instruction' } : { type: 'faq', id: s.id, title: s.title };
    used.set(source.id, source);
  }
  return [...used.values()];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const QUERY = 'The query is not valid.';
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

/**
 * The days asked for, checked: `tz` an IANA zone (default UTC), `from` and `to` dates with `from` ≤ `to` and at most a
 * year apart; without them, the last 30 days up to today in that zone.
 */
export function dayRange(query: { from: string | null; to: string | null; tz: string | null }, now: Date): DayRange {
  const tz = query.tz ?? 'UTC';
  if (!isTimeZone(tz)) throw new ProblemException(validationProblem([{ field: 'tz', message: 'tz must be an IANA time zone such as Europe/Madrid' }], QUERY));
  for (const field of ['from', 'to'] as const) {
    const value = query[field];
    if (value !== null && !isCalendarDay(value)) {
      throw new ProblemException(validationProblem([{ field, message: `${field} must be a date as YYYY-MM-DD` }], QUERY));
    }
  }
  const to = query.to ?? dayIn(now, tz);
  const from = query.from ?? shift(to, -(DEFAULT_DAYS - 1));
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (days < 0) throw new ProblemException(validationProblem([{ field: 'from', message: 'from must not be after to' }], QUERY));
  if (days >= MAX_DAYS) throw new ProblemException(problem(400, ProblemTypes.validation, 'Invalid request', `A range is at most ${MAX_DAYS} days.`, [{ field: 'from', message: `from must be at most ${MAX_DAYS} days before to` }]));
  return { from, to, tz };
}

/** A real calendar date as YYYY-MM-DD: JavaScript reads 2026-02-30 as 2 March, PostgreSQL refuses it. */
function isCalendarDay(value: string): boolean {
  const at = Date.parse(`${value}T00:00:00Z`);
  return DAY.test(value) && !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === value;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The date at `instant` in `tz`, as YYYY-MM-DD. */
function dayIn(instant: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

function shift(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
