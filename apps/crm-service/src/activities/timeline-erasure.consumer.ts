import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type ContactDeletedEvent } from '@parley/contracts';
import { SettledAfterGathering } from '@parley/kafka';
import { ActivitiesService } from './activities.service';

/**
 * A contact's deletion erases its timeline in the same transaction (ContactsService). Entries of messages already on
 * their way then (`message.outbound` is gathered briefly) can land just after it: this consumer of our own
 * `contact.deleted`, run once those have landed (`SettledAfterGathering`), erases them too.
 */
@Controller()
export class TimelineErasureConsumer {
  constructor(private readonly activities: ActivitiesService) {}

  @EventPattern(Topics.ContactDeleted, SettledAfterGathering)
  async onContactDeleted(@Payload() event: ContactDeletedEvent): Promise<void> {
    const data = event.data;
    if (!event.tenant_id || data?.tenant_id !== event.tenant_id || !data.contact_id) return;
    const at = new Date(data.at);
    await this.activities.eraseLateEntries(event.tenant_id, data, Number.isNaN(at.getTime()) ? new Date() : at);
  }
}
