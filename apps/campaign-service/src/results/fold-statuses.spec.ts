import type { MessageStatusData, OutboundStatus } from '@parley/contracts';
import { foldStatuses, type LockedRecipient } from './campaign-results.service';

const update = (message_id: string, status: OutboundStatus, tenantId = 'ten_a', error?: MessageStatusData['error']) => ({
  tenantId,
  status: { event: 'message.status', channel: 'whatsapp', tenant_id: tenantId, message_id, status, to: '+14155550100', at: '2026-11-29T00:00:00Z', ...(error ? { error } : {}) } as MessageStatusData,
});
const recipient = (message_id: string, campaign_id = 'cpg_1', status: LockedRecipient['status'] = 'queued'): LockedRecipient => ({ message_id, tenant_id: 'ten_a', campaign_id, status });

describe('foldStatuses', () => {
  it('folds a message’s statuses in order and sums each campaign’s counters', () => {
    const fold = foldStatuses(
      [recipient('m1'), recipient('m2'), recipient('m3', 'cpg_2', 'sent')],
      [update('m1', 'sent'), update('m1', 'read'), update('m1', 'delivered'), update('m2', 'delivered'), update('m3', 'delivered')],
    );
    expect(fold.deltas).toEqual(
      new Map([
        ['cpg_1', { queued: -2, sent: 2, delivered: 2, read: 1 }],
        ['cpg_2', { delivered: 1 }],
      ]),
    );
    expect(fold.recipients).toEqual(
      new Map([
        ['m1', { status: 'read', error: null }],
        ['m2', { status: 'delivered', error: null }],
        ['m3', { status: 'delivered', error: null }],
      ]),
    );
    expect(fold.blocks.size).toBe(0);
  });

  it('ignores another tenant’s status, a message it does not hold, and anything after failed; a spam block names the campaign', () => {
    const fold = foldStatuses(
      [recipient('m1'), recipient('m2')],
      [update('m1', 'sent', 'ten_b'), update('m9', 'sent'), update('m2', 'failed', 'ten_a', { code: '131056', title: 'Pair rate limit hit' }), update('m2', 'sent')],
    );
    expect(fold.deltas).toEqual(new Map([['cpg_1', { queued: -1, failed: 1 }]]));
    expect(fold.recipients).toEqual(new Map([['m2', { status: 'failed', error: JSON.stringify({ code: '131056', title: 'Pair rate limit hit' }) }]]));
    expect(fold.blocks).toEqual(new Map([['cpg_1', expect.stringContaining('131056 Pair rate limit hit')]]));
  });
});
