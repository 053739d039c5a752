import { Injectable } from '@nestjs/common';
import { statusNotification, type BusinessNumber, type StatusValue } from '../cloud-api/notifications';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import type { OutboxEntry } from './notification-outbox.store';

/**
 * The statuses a sandbox customer's phone reports for every message, in order, and how long after the send each
 * happens (all at once today; a later status only needs a later offset, the outbox keeps the order either way).
 */
const LIFECYCLE: readonly { status: StatusValue; afterMs: number }[] = [
  { status: 'sent', afterMs: 0 },
  { status: 'delivered', afterMs: 0 },
  { status: 'read', afterMs: 0 },
];

export interface AcceptedMessage {
  id: string;
  /** The customer (E.164). */
  to: string;
  bizOpaqueCallbackData: string | null;
  acceptedAt: Date;
}

/**
 * Plays the customer's phone: the `sent`, `delivered` and `read` notifications an accepted send will produce, as
 * outbox entries stored with the message itself (so an accepted message never lacks its statuses, even if the
 * sandbox dies right after answering). The dispatcher delivers them in that order.
 */
@Injectable()
export class StatusCallbacks {
  constructor(private readonly config: WhatsappSandboxConfig) {}

  get enabled(): boolean {
    return this.config.SANDBOX_STATUS_CALLBACKS;
  }

  plan(business: BusinessNumber, message: AcceptedMessage): OutboxEntry[] {
    if (!this.enabled) return [];
    return LIFECYCLE.map(({ status, afterMs }) => {
      const at = new Date(message.acceptedAt.getTime() + afterMs);
      const notification = statusNotification(business, {
        messageId: message.id,
        status,
        recipient: message.to,
        at,
        bizOpaqueCallbackData: message.bizOpaqueCallbackData,
      });
      return { messageKey: message.id, body: JSON.stringify(notification), dueAt: at, giveUpAt: new Date(at.getTime() + this.config.SANDBOX_NOTIFY_GIVE_UP_MS) };
    });
  }
}
