export type ChargeState = 'awaiting_send' | 'free' | 'unfunded' | 'held' | 'settled' | 'released' | 'refunded';
export type Outcome = 'sent' | 'failed';

/**
 * What a send's outcome does to its charge: a hold is settled into revenue when the message is sent and released
 * when it fails; a failure reported after `sent` refunds the settled price. Anything else moves no money.
 */
export function chargeTransition(state: ChargeState, outcome: Outcome): { type: 'settlement' | 'release' | 'refund'; state: ChargeState } | null {
  if (state === 'held') return outcome === 'sent' ? { type: 'settlement', state: 'settled' } : { type: 'release', state: 'released' };
  if (state === 'settled' && outcome === 'failed') return { type: 'refund', state: 'refunded' };
  return null;
}
