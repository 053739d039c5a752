import { Injectable, Logger } from '@nestjs/common';
import { newId, type LeadRecord } from '@parley/contracts';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { PipelinesService } from '../pipelines/pipelines.service';
import { dealCreated } from './deal-events';
import { DealsStore } from './deals.store';

/**
 * A captured lead opens a deal in the first stage of the tenant's default pipeline (CONTRACT.md §14), for the contact
 * the lead was linked to (contact intake runs first). One deal per lead: a redelivered `lead.captured` finds it there.
 */
@Injectable()
export class LeadDealsService {
  private readonly logger = new Logger('LeadDealsService');

  constructor(
    private readonly deals: DealsStore,
    private readonly relay: OutboxRelay,
    private readonly pipelines: PipelinesService,
  ) {}

  async openForLead(tenantId: string, lead: LeadRecord): Promise<void> {
    const opened = await this.deals.transaction(async (tx) => {
      const contactId = await this.deals.leadContact(tenantId, lead.id, tx);
      if (!contactId) {
        // a lead with neither a number nor an email has no contact, and a deal needs one
        this.logger.warn(`lead ${lead.id} has no contact: no deal opened`);
        return false;
      }
      const pipeline = await this.pipelines.defaultOf(tx, tenantId);
      const created = await this.deals.insertForLead(
        tenantId,
        { id: newId('del'), title: titleOf(lead), contact_id: contactId, pipeline_id: pipeline.id, stage: pipeline.stages[0], lead_id: lead.id },
        tx,
      );
      if (created) await enqueueEvents(tx, [dealCreated(created)]);
      return Boolean(created);
    });
    if (opened) this.relay.wake();
  }
}

/** "Ana Lima: kitchen renovation", or the number when the lead gave no name. */
function titleOf(lead: LeadRecord): string {
  const who = lead.name ?? lead.phone ?? lead.email ?? 'New lead';
  return (lead.interest ? `${who}: ${lead.interest}` : who).slice(0, 200);
}
