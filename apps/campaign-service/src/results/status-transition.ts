import type { OutboundStatus, RecipientStatus } from '@parley/contracts';

const RANK: Partial<Record<RecipientStatus, number>> = { pending: 0, queued: 1, sent: 2, delivered: 3, read: 4 };

export type CounterDeltas = Partial<Record<'queued' | 'sent' | 'delivered' | 'read' | 'failed', number>>;

/**
 * How the campaign's counters change when a recipient moves from `previous` to `next`, or null when that is no move
 * (a repeated or older status, anything after `failed`, a read message reported failed). `sent`, `delivered` and `read`
 * count recipients that reached at least that status, so a status that skips one (read before delivered) counts both.
 */
export function statusTransition(previous: RecipientStatus, next: OutboundStatus): CounterDeltas | null {
  const from = RANK[previous];
  if (from === undefined) return null; // failed or skipped: final
  const deltas: CounterDeltas = previous === 'queued' ? { queued: -1 } : {};
  if (next === 'failed') return from <= RANK.sent! ? { ...deltas, failed: 1 } : null;
  const to = RANK[next]!;
  if (to <= from) return null;
  for (const status of ['sent', 'delivered', 'read'] as const) if (from < RANK[status]! && RANK[status]! <= to) deltas[status] = 1;
  return deltas;
}
