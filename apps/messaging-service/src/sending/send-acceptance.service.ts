import { Injectable, Logger } from '@nestjs/common';
import { Counter } from 'prom-client';
import { GroupCommit } from '@parley/service-kit';
import type { MessageEntity } from '../messages/message.entity';
import { messageFromRow } from '../messages/message-row';
import { MessageStatusService } from '../messages/message-status.service';
import { PendingStatusesService } from '../messages/pending-statuses.service';
import { SendAcceptanceStore, type Acceptance } from './send-acceptance.store';
import { WRITE_LINGER_MS } from '../database/write-linger';

const duplicateSends = new Counter({
  name: 'messaging_duplicate_provider_sends_total',
  help: 'Messages the provider accepted twice (an attempt whose outcome was unknown had been taken after all)',
});

interface Recorded {
  /** Whether this acceptance recorded the wamid (false: the message had one already, failed, or is not on that channel). */
  recorded: boolean;
  /** The tenant's message after the write, when it exists. */
  message: MessageEntity | null;
}

/**
 * Records that the provider took a message (its wamid), from either evidence: the send's own answer, or a status
 * notification naming the message in `biz_opaque_callback_data` (the answer of a timed-out send never came, but the
 * provider echoes that field in every status of the message). The first wamid recorded wins; a second one means the
 * message went out twice. Recording removes the message from the send queue, announces its `sent` and applies the
 * statuses that arrived before it. Concurrent recordings share one statement (group commit).
 */
@Injectable()
export class SendAcceptance {
  private readonly logger = new Logger(SendAcceptance.name);
  private readonly acceptances = new GroupCommit<Acceptance, Recorded>((batch) => this.write(batch), { lingerMs: WRITE_LINGER_MS });

  constructor(
    private readonly store: SendAcceptanceStore,
    private readonly statuses: MessageStatusService,
    private readonly pending: PendingStatusesService,
  ) {}

  /**
   * Records `providerMessageId` for an outbound message of the tenant sent from `channelId`. Returns the message when
   * this call recorded it; null when it already had a wamid (or failed, or is not the tenant's message on that channel).
   */
  async record(tenantId: string, messageId: string, channelId: string, providerMessageId: string, requestId?: string): Promise<MessageEntity | null> {
    const { recorded, message } = await this.acceptances.add({ tenantId, messageId, channelId, providerMessageId });
    if (!recorded) {
      if (message?.providerMessageId && message.providerMessageId !== providerMessageId && message.channelId === channelId) {
        duplicateSends.inc();
        this.logger.warn(`message ${messageId} was accepted twice by the provider (${message.providerMessageId} and ${providerMessageId})`);
      }
      return null;
    }
    // The parked statuses are looked up (nearly always none) while `sent` is announced, and applied after it.
    const [, parked] = await Promise.all([this.statuses.announce(message!, requestId), this.pending.parkedFor(message!)]);
    await this.pending.applyFound(message!, parked);
    return message;
  }

  /** One statement for the batch (SendAcceptanceStore.recordProviderIds), then which acceptance recorded its message. */
  private async write(batch: Acceptance[]): Promise<Recorded[]> {
    const rows = await this.store.recordProviderIds(batch);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const taken = new Set<string>();
    return batch.map((a) => {
      const row = byId.get(a.messageId);
      if (!row || row.tenant_id !== a.tenantId) return { recorded: false, message: null };
      // The same message twice in one batch (its send's answer and a status naming it): the wamid written wins once.
      const recorded = row.recorded && row.provider_message_id === a.providerMessageId && row.channel_id === a.channelId && !taken.has(row.id);
      if (recorded) taken.add(row.id);
      return { recorded, message: messageFromRow(row) };
    });
  }
}
