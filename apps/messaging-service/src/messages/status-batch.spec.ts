import { foldStatuses, type BatchedMessageState } from './status-batch';
import { UNKNOWN_FAILURE } from './status-machine';

const sent: BatchedMessageState = { status: 'sent', history: [{ status: 'sent', at: 't0' }], error: null };

describe('foldStatuses', () => {
  it('applies a batch in order, as one status at a time would, with the request of each added entry', () => {
    const folded = foldStatuses(sent, [
      { incoming: { status: 'sent', at: 't1' }, requestId: 'r1' },
      { incoming: { status: 'delivered', at: 't2' }, requestId: 'r2' },
      { incoming: { status: 'read', at: 't3' }, requestId: 'r3' },
    ]);
    expect(folded).toEqual({
      status: 'read',
      history: [
        { status: 'sent', at: 't0' },
        { status: 'delivered', at: 't2' },
        { status: 'read', at: 't3' },
      ],
      error: null,
      changed: true,
      requestIds: ['r2', 'r3'],
    });
  });

  it('keeps the one-way machine for statuses out of order inside a batch: read first fills delivered in, the late ones change nothing', () => {
    const folded = foldStatuses(sent, [
      { incoming: { status: 'read', at: 't3' }, requestId: 'r3' },
      { incoming: { status: 'delivered', at: 't2' }, requestId: 'r2' },
      { incoming: { status: 'failed', at: 't4' }, requestId: 'r4' },
    ]);
    expect(folded.status).toBe('read');
    expect(folded.history).toEqual([
      { status: 'sent', at: 't0' },
      { status: 'delivered', at: 't3' },
      { status: 'read', at: 't3' },
    ]);
    expect(folded.requestIds).toEqual(['r3', 'r3']);
  });

  it('fails a message not yet delivered, terminally, with the error (or the unknown one)', () => {
    const folded = foldStatuses(sent, [{ incoming: { status: 'failed', at: 't1' } }, { incoming: { status: 'delivered', at: 't2' } }]);
    expect(folded).toMatchObject({ status: 'failed', error: UNKNOWN_FAILURE, changed: true });
    expect(folded.history.map((e) => e.status)).toEqual(['sent', 'failed']);
  });

  it('reports no change for a batch that only repeats what the message has', () => {
    const read: BatchedMessageState = { status: 'read', history: [...sent.history, { status: 'delivered', at: 't1' }, { status: 'read', at: 't2' }], error: null };
    const folded = foldStatuses(read, [{ incoming: { status: 'delivered', at: 't1' } }, { incoming: { status: 'read', at: 't2' } }, { incoming: { status: 'sent', at: 't0' } }]);
    expect(folded).toEqual({ ...read, changed: false, requestIds: [] });
  });
});
