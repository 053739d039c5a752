import type { MessageError, OutboundStatus } from '@parley/contracts';
import type { StatusEntry } from './message.entity';

export interface OutboundState {
  status: OutboundStatus;
  history: StatusEntry[];
}

export interface IncomingStatus {
  status: OutboundStatus;
  at: string;
  /** For `failed`: why (Cloud API `errors[0]`, or the send's error). */
  error?: MessageError;
}

export interface StatusChange extends OutboundState {
  error: MessageError | null;
  /** The history entries this change added, oldest first (each is announced on `message.status`). */
  added: StatusEntry[];
}

const RANK: Record<Exclude<OutboundStatus, 'failed'>, number> = { sent: 0, delivered: 1, read: 2 };

export const UNKNOWN_FAILURE: MessageError = { code: 'unknown', title: 'The message could not be delivered' };

/**
 * The one-way state machine of an outbound message: `sent` → `delivered` → `read`, or `failed`, which is terminal.
 * Providers deliver statuses late, twice and out of order, so a status that would move backwards (a late `sent`
 * after `read`) or repeat one changes nothing, and a `read` with no `delivered` before it fills `delivered` in.
 * `failed` applies only to a message not yet delivered: a delivered message cannot un-deliver.
 * Returns null when nothing changes.
 */
export function advanceStatus(current: OutboundState, incoming: IncomingStatus): StatusChange | null {
  if (current.status === 'failed') return null;
  if (incoming.status === 'failed') {
    if (current.status !== 'sent') return null;
    const entry: StatusEntry = { status: 'failed', at: incoming.at };
    return { status: 'failed', history: [...current.history, entry], error: incoming.error ?? UNKNOWN_FAILURE, added: [entry] };
  }
  if (RANK[incoming.status] <= RANK[current.status]) return null;
  const added: StatusEntry[] = [];
  if (incoming.status === 'read' && !current.history.some((e) => e.status === 'delivered')) added.push({ status: 'delivered', at: incoming.at });
  added.push({ status: incoming.status, at: incoming.at });
  return { status: incoming.status, history: [...current.history, ...added], error: null, added };
}
