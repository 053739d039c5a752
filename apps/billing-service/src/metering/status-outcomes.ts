import type { MessageStatusEvent } from '@parley/contracts';
import { GroupCommit } from '@parley/service-kit';
import type { Outcome } from './charge-transitions';
import type { ChargesStore } from './charges.store';

/** delivered/read imply sent (a missed `sent` must not leave the money held). */
export function outcomeOf(event: MessageStatusEvent): Outcome {
  return event.data.status === 'failed' ? 'failed' : 'sent';
}

/**
 * The events of one key group (in partition order) that may still change a charge: an event whose message already
 * had that outcome earlier in the group, or `failed` (final), is dropped. Applying an outcome a second time moves no
 * money and changes no row (ChargesService.onOutcome: `failed` is sticky, and each transition leaves its state), so
 * dropping it is exact; what remains is at most `sent` then `failed` per message.
 */
export function withoutRepeats(events: readonly MessageStatusEvent[]): MessageStatusEvent[] {
  const last = new Map<string, Outcome>();
  return events.filter((event) => {
    const outcome = outcomeOf(event);
    const before = last.get(event.data.message_id);
    last.set(event.data.message_id, before === 'failed' ? 'failed' : outcome);
    return before === undefined || (before !== 'failed' && before !== outcome);
  });
}

/**
 * Skips the status events that cannot change a charge any more, in one statement for all the key groups consumed
 * side by side (group commit): a message's `delivered` and `read` after its `sent` was applied cost one shared read
 * instead of a transaction each. An outcome is settled for good when the charge has it recorded (or `failed`, which
 * is final) and no money waits on it (not `held`, not a `settled` charge that a failure must refund): every committed
 * change keeps that true, so the unlocked read may be stale but never wrongly skips.
 */
export class StatusOutcomes {
  private readonly checks = new GroupCommit<MessageStatusEvent, boolean>((events) => this.settled(events));

  constructor(private readonly charges: ChargesStore) {}

  /** The group's events that still need ChargesService.onOutcome, in order. */
  async needingWork(events: readonly MessageStatusEvent[]): Promise<MessageStatusEvent[]> {
    const candidates = withoutRepeats(events.filter((e) => e.tenant_id));
    // Only a message's first event here can be settled already; a later one follows an outcome this group applies.
    const firsts = new Map<string, MessageStatusEvent>();
    for (const event of candidates) if (!firsts.has(event.data.message_id)) firsts.set(event.data.message_id, event);
    const settled = new Set<MessageStatusEvent>();
    await Promise.all(
      [...firsts.values()].map(async (event) => {
        if (await this.checks.add(event)) settled.add(event);
      }),
    );
    return candidates.filter((event) => !settled.has(event));
  }

  private settled(events: MessageStatusEvent[]): Promise<boolean[]> {
    return this.charges.settledOutcomes(events.map((e) => ({ tenantId: e.tenant_id!, messageId: e.data.message_id, outcome: outcomeOf(e) })));
  }
}
