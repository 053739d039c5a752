import type { StatusEntry } from './message.entity';
import { advanceStatus, type OutboundState } from './status-machine';

const t = (n: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, n)).toISOString();
const sent: OutboundState = { status: 'sent', history: [{ status: 'sent', at: t(0) }] };

function apply(state: OutboundState, ...steps: Parameters<typeof advanceStatus>[1][]) {
  const events: StatusEntry[] = [];
  for (const step of steps) {
    const change = advanceStatus(state, step);
    if (change) {
      state = { status: change.status, history: change.history };
      events.push(...change.added);
    }
  }
  return { state, events: events.map((e) => e.status) };
}

describe('advanceStatus', () => {
  it('moves sent → delivered → read', () => {
    const { state, events } = apply(sent, { status: 'delivered', at: t(1) }, { status: 'read', at: t(2) });
    expect(state.status).toBe('read');
    expect(state.history).toEqual([
      { status: 'sent', at: t(0) },
      { status: 'delivered', at: t(1) },
      { status: 'read', at: t(2) },
    ]);
    expect(events).toEqual(['delivered', 'read']);
  });

  it('never moves back: a late sent or delivered after read changes nothing', () => {
    const { state, events } = apply(sent, { status: 'read', at: t(2) }, { status: 'sent', at: t(3) }, { status: 'delivered', at: t(4) });
    expect(state.status).toBe('read');
    expect(events).toEqual(['delivered', 'read']);
  });

  it('fills in a skipped delivered when read arrives first', () => {
    const change = advanceStatus(sent, { status: 'read', at: t(5) });
    expect(change?.added).toEqual([
      { status: 'delivered', at: t(5) },
      { status: 'read', at: t(5) },
    ]);
  });

  it('ignores repeats of the current status', () => {
    expect(advanceStatus(sent, { status: 'sent', at: t(1) })).toBeNull();
    const delivered = apply(sent, { status: 'delivered', at: t(1) }).state;
    expect(advanceStatus(delivered, { status: 'delivered', at: t(2) })).toBeNull();
  });

  it('fails a sent message with its error, and failed is terminal', () => {
    const change = advanceStatus(sent, { status: 'failed', at: t(1), error: { code: '131049', title: 'Not delivered' } });
    expect(change).toMatchObject({ status: 'failed', error: { code: '131049', title: 'Not delivered' } });
    const failed = { status: change!.status, history: change!.history };
    expect(advanceStatus(failed, { status: 'delivered', at: t(2) })).toBeNull();
    expect(advanceStatus(failed, { status: 'read', at: t(3) })).toBeNull();
    expect(advanceStatus(failed, { status: 'failed', at: t(4) })).toBeNull();
  });

  it('gives a failure without an error a generic one', () => {
    expect(advanceStatus(sent, { status: 'failed', at: t(1) })?.error).toEqual({ code: 'unknown', title: 'The message could not be delivered' });
  });

  it('does not fail a message that was already delivered', () => {
    const delivered = apply(sent, { status: 'delivered', at: t(1) }).state;
    expect(advanceStatus(delivered, { status: 'failed', at: t(2), error: { code: '1', title: 'x' } })).toBeNull();
  });
});
