import type { MessageError, OutboundStatus } from '@parley/contracts';
import type { StatusEntry } from './message.entity';
import { advanceStatus, type IncomingStatus } from './status-machine';

/** A message's state as a batch of statuses finds it. */
export interface BatchedMessageState {
  status: OutboundStatus;
  history: StatusEntry[];
  error: MessageError | null;
}

/** One status of a batch, with the request that brought it (for the announcement's request id). */
export interface BatchedStatus {
  incoming: IncomingStatus;
  requestId?: string;
}

export interface FoldedStatuses extends BatchedMessageState {
  /** Whether any status of the batch changed the message. */
  changed: boolean;
  /** Per added history entry (in order), the request id of the status that added it. */
  requestIds: (string | undefined)[];
}

/**
 * The final state of one message after the statuses of a batch, applied one by one in arrival order through the
 * one-way status machine: exactly what applying them one notification at a time would leave.
 */
export function foldStatuses(start: BatchedMessageState, statuses: readonly BatchedStatus[]): FoldedStatuses {
  let state: BatchedMessageState = start;
  const requestIds: (string | undefined)[] = [];
  for (const { incoming, requestId } of statuses) {
    const change = advanceStatus({ status: state.status, history: state.history }, incoming);
    if (!change) continue;
    state = { status: change.status, history: change.history, error: change.error };
    for (let i = 0; i < change.added.length; i++) requestIds.push(requestId);
  }
  return { ...state, changed: state !== start, requestIds };
}
