import { Injectable } from '@nestjs/common';

/** How one sandbox number misbehaves on purpose, so tests and benchmarks can play a slow or strict provider. */
export interface NumberBehaviour {
  /** Accepted sends answer this late (the message is stored and its statuses go out at once): a slow provider. */
  answer_delay_ms: number;
  /** A send to a customer who got one from this number less than this ago is refused with 131056 (pair rate). */
  pair_interval_ms: number;
}

const NORMAL: NumberBehaviour = { answer_delay_ms: 0, pair_interval_ms: 0 };

/** Per-number behaviours, in memory (a restart makes every number well-behaved again). */
@Injectable()
export class NumberBehaviours {
  private readonly byId = new Map<string, NumberBehaviour>();
  /** `${phone_number_id}:${customer}` → when the customer last got a message (only while a pair interval is set). */
  private readonly lastSendTo = new Map<string, number>();

  of(phoneNumberId: string): NumberBehaviour {
    return this.byId.get(phoneNumberId) ?? NORMAL;
  }

  set(phoneNumberId: string, change: Partial<NumberBehaviour>): NumberBehaviour {
    const next = { ...this.of(phoneNumberId), ...change };
    this.byId.set(phoneNumberId, next);
    return next;
  }

  /** Whether a send to `customer` now keeps the pair interval; records it when it does. */
  takePairTurn(phoneNumberId: string, customer: string, now = Date.now()): boolean {
    const interval = this.of(phoneNumberId).pair_interval_ms;
    if (interval <= 0) return true;
    const key = `${phoneNumberId}:${customer}`;
    const last = this.lastSendTo.get(key);
    if (last !== undefined && now - last < interval) return false;
    this.lastSendTo.set(key, now);
    return true;
  }
}
