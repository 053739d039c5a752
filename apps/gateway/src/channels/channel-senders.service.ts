import { Injectable } from '@nestjs/common';
import { RpcClient, RpcProblemError } from '@parley/kafka';

/**
 * How long a confirmed sender is trusted without asking again. A safety net only: `channel.changed` (or a change made
 * through this instance) forgets a tenant's senders at once; this bounds what a missed event can cost.
 */
export const SENDER_TTL_MS = 10_000;

/**
 * Whether a number is one of a tenant's connected channels (the `from` of a send, CONTRACT.md §4), without a
 * request-reply call to messaging-service per send. Only confirmations are kept: a number connected a moment ago on
 * another instance must be accepted at once, so an unknown number is always asked about (and refused if it still is).
 *
 * Kept only while the listener of `channel.changed` runs (`trust`); every change of a tenant's channels forgets all of
 * its confirmations. A confirmation whose call was in flight during any change is not kept, so a disconnect that
 * races a lookup cannot leave the disconnected number confirmed. The map holds confirmed numbers only, so it is
 * bounded by the channels that exist.
 */
@Injectable()
export class ChannelSendersService {
  private readonly confirmed = new Map<string, Map<string, number>>();
  private readonly inFlight = new Map<string, Promise<boolean>>();
  /** Bumped by every change and by losing the change feed: confirmations asked for before it are stale. */
  private generation = 0;
  private trusted = false;

  constructor(private readonly rpc: RpcClient) {}

  /** True when `from` is a connected number of the tenant; false when messaging-service says it is not. */
  async isSender(tenantId: string, from: string, requestId?: string): Promise<boolean> {
    const expiresAt = this.confirmed.get(tenantId)?.get(from);
    if (expiresAt !== undefined && expiresAt > Date.now()) return true;
    // Concurrent sends from one number share one call.
    const key = `${tenantId}\n${from}`;
    let lookup = this.inFlight.get(key);
    if (!lookup) {
      const asked = this.ask(tenantId, from, requestId).finally(() => {
        if (this.inFlight.get(key) === asked) this.inFlight.delete(key);
      });
      this.inFlight.set(key, (lookup = asked));
    }
    return lookup;
  }

  /** The tenant's channels changed: forget its confirmed senders. */
  forgetTenant(tenantId: string): void {
    this.generation++;
    this.confirmed.delete(tenantId);
    for (const key of this.inFlight.keys()) if (key.startsWith(`${tenantId}\n`)) this.inFlight.delete(key);
  }

  /** A change that cannot be attributed to a tenant: forget every confirmed sender. */
  forgetAll(): void {
    this.generation++;
    this.confirmed.clear();
  }

  /** Whether changes reach this instance: confirmations are kept only while they do. */
  trust(trusted: boolean): void {
    if (trusted === this.trusted) return;
    this.trusted = trusted;
    if (!trusted) this.forgetAll();
    else this.generation++;
  }

  private async ask(tenantId: string, from: string, requestId?: string): Promise<boolean> {
    const generation = this.generation;
    try {
      await this.rpc.request('channels.resolve-sender', { tenant_id: tenantId, phone_number: from }, { requestId });
    } catch (err) {
      if (err instanceof RpcProblemError && err.problem.status === 404) return false;
      throw err;
    }
    if (this.trusted && generation === this.generation) {
      let senders = this.confirmed.get(tenantId);
      if (!senders) this.confirmed.set(tenantId, (senders = new Map()));
      senders.set(from, Date.now() + SENDER_TTL_MS);
    }
    return true;
  }
}
