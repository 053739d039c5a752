import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker, WorkerLoop } from '@parley/service-kit';
import { RoutingQueued } from '../conversations/routing-queued';
import { RoutingService } from './routing.service';

/**
 * Looks for what no wake-up announced: another instance's handoffs, a member whose dashboard came back, a reassign
 * time that ran out, a team that opened. Also the resolution of those times.
 */
const SWEEP_MS = 5_000;

/**
 * Runs routing (RoutingService) after the transactions that queue conversations commit: woken by this instance's
 * handoffs, team changes and members coming online, and sweeping for the rest. The queue is the conversations table
 * itself, so a crash loses nothing: the next pass, here or elsewhere, finds them still waiting.
 */
@Injectable()
export class RoutingWorker extends BackgroundWorker {
  private readonly logger = new Logger(RoutingWorker.name);
  protected readonly loop = new WorkerLoop({ name: 'routing', pass: () => this.pass(), sweepMs: SWEEP_MS, logger: this.logger });

  constructor(
    private readonly routing: RoutingService,
    queued: RoutingQueued,
  ) {
    super();
    queued.onQueued(() => this.wake());
  }

  /** Routes every tenant with work once; the next pass at the sweep or a wake-up. */
  async pass(): Promise<null> {
    for (const tenantId of await this.routing.tenantsWithWork()) {
      if (this.loop.stopping) break;
      await this.routing.routeTenant(tenantId);
    }
    return null;
  }
}
