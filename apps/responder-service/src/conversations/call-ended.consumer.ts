import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { Topics, type VoiceCallEndedEvent } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { ConversationsService } from './conversations.service';
import { InboxService } from './inbox.service';

/**
 * A voice call's end ends its conversation (CONTRACT.md §17): the caller's open conversation on that voice channel is
 * closed, so calling again starts a new one (with the same contact). Closing twice changes nothing, so a redelivered or
 * repeated `voice.call_ended` is harmless.
 */
@Controller()
export class CallEndedConsumer {
  private readonly logger = new Logger(CallEndedConsumer.name);

  constructor(
    private readonly conversations: ConversationsService,
    private readonly inbox: InboxService,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  @EventPattern(Topics.VoiceCallEnded)
  async onCallEnded(@Payload() event: VoiceCallEndedEvent): Promise<void> {
    const { tenant_id: tenantId, channel_id: channelId, from: caller } = event.data ?? {};
    if (!tenantId || event.tenant_id !== tenantId || !channelId || !caller) return;
    const id = await this.conversations.latestWith(this.db.manager, tenantId, { to: caller, from: null, channel_id: channelId });
    if (!id) return;
    try {
      const conversation = await this.conversations.find(this.db.manager, tenantId, id);
      if (conversation.state !== 'closed') await this.inbox.update(tenantId, id, { state: 'closed' });
    } catch (err) {
      // Erased meanwhile (contact.deleted): nothing left to close.
      if (err instanceof ProblemException && err.problem.status === 404) return;
      throw err;
    }
    this.logger.debug(`closed conversation ${id} of tenant ${tenantId}: call ${event.data.call_sid} ended`);
  }
}
