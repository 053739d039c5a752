import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { MessageEntity } from '../messages/message.entity';
import { MessageStatusService } from '../messages/message-status.service';
import { PendingStatusesService } from '../messages/pending-statuses.service';

const duplicateSends = new Counter({
  name: 'messaging_duplicate_provider_sends_total',
  help: 'Messages the provider accepted twice (an attempt whose outcome was unknown had been taken after all)',
});

/**
 * Records that the provider took a message (its wamid), from either evidence: the send's own answer, or a status
 * notification naming the message in `biz_opaque_callback_data` (the answer of a timed-out send never came, but the
 * provider echoes that field in every status of the message). The first wamid recorded wins; a second one means the
 * message went out twice. Recording removes the message from the send queue, announces its `sent` and applies the
 * statuses that arrived before it.
 */
@Injectable()
export class SendAcceptance {
  private readonly logger = new Logger(SendAcceptance.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly statuses: MessageStatusService,
    private readonly pending: PendingStatusesService,
  ) {}

  /**
   * Records `providerMessageId` for an outbound message of the tenant sent from `channelId`. Returns the message when
   * this call recorded it; null when it already had a wamid (or failed, or is not the tenant's message on that channel).
   */
  async record(tenantId: string, messageId: string, channelId: string, providerMessageId: string, requestId?: string): Promise<MessageEntity | null> {
    const recorded = await this.db.transaction(async (tx) => {
      const result = await tx
        .createQueryBuilder()
        .update(MessageEntity)
        .set({ providerMessageId })
        .where(`id = :messageId AND tenant_id = :tenantId AND channel_id = :channelId AND direction = 'outbound' AND provider_message_id IS NULL AND status <> 'failed'`, {
          messageId,
          tenantId,
          channelId,
        })
        .execute();
      if (!result.affected) return false;
      await tx.query(`DELETE FROM send_queue WHERE message_id = $1 AND tenant_id = $2`, [messageId, tenantId]);
      return true;
    });
    const message = await this.db.getRepository(MessageEntity).findOneBy({ id: messageId, tenantId });
    if (!recorded) {
      if (message?.providerMessageId && message.providerMessageId !== providerMessageId && message.channelId === channelId) {
        duplicateSends.inc();
        this.logger.warn(`message ${messageId} was accepted twice by the provider (${message.providerMessageId} and ${providerMessageId})`);
      }
      return null;
    }
    await this.statuses.announce(message!, requestId);
    await this.pending.applyParked(message!);
    return message;
  }
}
