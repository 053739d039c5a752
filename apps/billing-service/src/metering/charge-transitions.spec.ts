import { chargeTransition, type ChargeState } from './charge-transitions';

describe('chargeTransition', () => {
  it('settles a hold on sent and releases it on failed', () => {
    expect(chargeTransition('held', 'sent')).toEqual({ type: 'settlement', state: 'settled' });
    expect(chargeTransition('held', 'failed')).toEqual({ type: 'release', state: 'released' });
  });

  it('refunds a settled charge whose message failed after all, once', () => {
    expect(chargeTransition('settled', 'failed')).toEqual({ type: 'refund', state: 'refunded' });
    expect(chargeTransition('refunded', 'failed')).toBeNull();
  });

  it.each<ChargeState>(['awaiting_send', 'free', 'unfunded', 'released', 'refunded'])('moves no money for a %s charge', (state) => {
    expect(chargeTransition(state, 'sent')).toBeNull();
    expect(chargeTransition(state, 'failed')).toBeNull();
  });

  it('does not settle twice', () => {
    expect(chargeTransition('settled', 'sent')).toBeNull();
  });
});
