import type Redis from 'ioredis';

/** What is known of a call in progress. */
export interface ActiveCall {
  callSid: string;
  tenantId: string;
  channelId: string;
  /** The turn whose reply is awaited (the one the caller spoke last). */
  turn: string;
  /** The conversation was handed to a person: the next answer dials the channel's `forward_to`. */
  handoff: boolean;
}

/** A call nobody hung up on (a lost status callback) is forgotten after this. */
const CALL_TTL_S = 4 * 60 * 60;

/**
 * The calls in progress, in Redis so that every instance (the webhook's, the send path's, the handoff consumer's) sees
 * the same: the agent's reply to a caller goes out through the normal send path, which knows only the channel's number
 * and the caller's, so it finds the call, and the turn the reply answers, here.
 */
export class VoiceCalls {
  constructor(private readonly redis: Redis) {}

  /** The caller spoke turn `turn` of call `callSid` on `number` (the channel's): replies to them now answer it. */
  async speaking(call: Omit<ActiveCall, 'handoff'>, number: string, caller: string): Promise<void> {
    const key = callKey(call.callSid);
    await this.redis
      .multi()
      .hset(key, { tenantId: call.tenantId, channelId: call.channelId, turn: call.turn })
      .expire(key, CALL_TTL_S)
      .set(activeKey(number, caller), call.callSid, 'EX', CALL_TTL_S)
      .set(customerKey(call.tenantId, caller), call.callSid, 'EX', CALL_TTL_S)
      .exec();
  }

  /** The call between the channel's `number` and `caller` whose reply is awaited, if any. */
  async activeBetween(number: string, caller: string): Promise<ActiveCall | null> {
    const callSid = await this.redis.get(activeKey(number, caller));
    return callSid ? this.get(callSid) : null;
  }

  async get(callSid: string): Promise<ActiveCall | null> {
    const row = await this.redis.hgetall(callKey(callSid));
    if (!row.tenantId || !row.channelId || !row.turn) return null;
    return { callSid, tenantId: row.tenantId, channelId: row.channelId, turn: row.turn, handoff: row.handoff === '1' };
  }

  /** The tenant's conversation with `customer` went to a person: when they are on a call, it is forwarded. */
  async handOff(tenantId: string, customer: string): Promise<boolean> {
    const callSid = await this.redis.get(customerKey(tenantId, customer));
    if (!callSid || !(await this.redis.exists(callKey(callSid)))) return false;
    await this.redis.hset(callKey(callSid), 'handoff', '1');
    return true;
  }

  /** The call ended: replies still on their way to it are dropped (the send fails as the call is gone). */
  async ended(callSid: string, number: string, caller: string): Promise<void> {
    const call = await this.get(callSid);
    const keys = [callKey(callSid)];
    if ((await this.redis.get(activeKey(number, caller))) === callSid) keys.push(activeKey(number, caller));
    if (call && (await this.redis.get(customerKey(call.tenantId, caller))) === callSid) keys.push(customerKey(call.tenantId, caller));
    await this.redis.del(...keys);
  }
}

const callKey = (callSid: string) => `parley:voice-call:${callSid}`;
const activeKey = (number: string, caller: string) => `parley:voice-active:${number}:${caller}`;
const customerKey = (tenantId: string, customer: string) => `parley:voice-customer:${tenantId}:${customer}`;
