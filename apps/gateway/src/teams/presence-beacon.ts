import { Injectable, Logger } from '@nestjs/common';
import { RpcClient } from '@parley/kafka';
import type { ServerResponse } from 'node:http';

/** Half the minute after which a member with no sign of life is away: one missed beat does not make them so. */
const BEAT_MS = 30_000;

/**
 * Tells responder-service that a member is there while a dashboard of theirs holds the events stream open: at once,
 * then every 30 s until the stream closes. A member whose last stream closed is away a minute later (CONTRACT.md §18).
 */
@Injectable()
export class PresenceBeacon {
  private readonly logger = new Logger(PresenceBeacon.name);

  constructor(private readonly rpc: RpcClient) {}

  follow(tenantId: string, memberId: string, stream: ServerResponse, requestId: string): void {
    const beat = (): void => {
      this.rpc.request('presence.seen', { tenant_id: tenantId, member_id: memberId }, { requestId }).catch((err: unknown) => {
        this.logger.warn(`presence of ${memberId} not recorded: ${String(err)}`);
      });
    };
    beat();
    const timer = setInterval(beat, BEAT_MS);
    timer.unref();
    stream.once('close', () => clearInterval(timer));
  }
}
