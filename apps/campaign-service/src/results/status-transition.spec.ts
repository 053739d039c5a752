import { statusTransition } from './status-transition';

describe('statusTransition', () => {
  it('moves a queued recipient forward, counting every status it reached', () => {
    expect(statusTransition('queued', 'sent')).toEqual({ queued: -1, sent: 1 });
    expect(statusTransition('queued', 'read')).toEqual({ queued: -1, sent: 1, delivered: 1, read: 1 });
    expect(statusTransition('sent', 'delivered')).toEqual({ delivered: 1 });
  });

  it('ignores a repeated or older status', () => {
    expect(statusTransition('delivered', 'delivered')).toBeNull();
    expect(statusTransition('read', 'sent')).toBeNull();
  });

  it('fails only what was not yet delivered, once', () => {
    expect(statusTransition('queued', 'failed')).toEqual({ queued: -1, failed: 1 });
    expect(statusTransition('sent', 'failed')).toEqual({ failed: 1 });
    expect(statusTransition('delivered', 'failed')).toBeNull();
    expect(statusTransition('failed', 'failed')).toBeNull();
    expect(statusTransition('skipped_opted_out', 'sent')).toBeNull();
  });
});
