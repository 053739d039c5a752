import { Injectable, Logger } from '@nestjs/common';
import { statusNotification, type BusinessNumber, type StatusValue } from '../cloud-api/notifications';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { GatewayNotifier } from './gateway-notifier.service';

/** The statuses a sandbox customer's phone reports for every message, in order. */
const LIFECYCLE: readonly StatusValue[] = ['sent', 'delivered', 'read'];
/** Messages whose status notifications are in flight at once; the rest wait their turn. */
const MAX_CONCURRENT = 32;

export interface AcceptedMessage {
  id: string;
  /** The customer (E.164). */
  to: string;
  bizOpaqueCallbackData: string | null;
}

/**
 * Plays the customer's phone: after a send is accepted, `sent`, `delivered` and `read` notifications reach the
 * gateway in that order, off the request path. Kept in memory: statuses pending when the sandbox stops are lost,
 * as they may be with a real provider.
 */
@Injectable()
export class StatusCallbacks {
  private readonly logger = new Logger(StatusCallbacks.name);
  private readonly queue: { business: BusinessNumber; message: AcceptedMessage }[] = [];
  private running = 0;

  constructor(
    private readonly config: WhatsappSandboxConfig,
    private readonly notifier: GatewayNotifier,
  ) {}

  schedule(business: BusinessNumber, message: AcceptedMessage): void {
    if (!this.config.SANDBOX_STATUS_CALLBACKS || this.notifier.stopped) return;
    this.queue.push({ business, message });
    // After the current turn, so the send's answer is on its way before its first status.
    setImmediate(() => this.pump());
  }

  private pump(): void {
    while (this.running < MAX_CONCURRENT && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running++;
      this.run(job.business, job.message)
        .catch((err: unknown) => this.logger.error(`status notifications of ${job.message.id} failed: ${String(err)}`))
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }

  private async run(business: BusinessNumber, message: AcceptedMessage): Promise<void> {
    for (const status of LIFECYCLE) {
      if (this.notifier.stopped) return;
      const notification = statusNotification(business, {
        messageId: message.id,
        status,
        recipient: message.to,
        at: new Date(),
        bizOpaqueCallbackData: message.bizOpaqueCallbackData,
      });
      // A status that never got through ends the sequence: the gateway is unreachable, later ones would fail alike.
      if (!(await this.notifier.deliver(notification, `status ${status} of ${message.id}`))) return;
    }
  }
}
