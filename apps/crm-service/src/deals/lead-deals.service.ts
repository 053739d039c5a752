import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, type LeadRecord } from '@parley/contracts';
import { DataSource } from 'typeorm';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { PipelinesService } from '../pipelines/pipelines.service';
import { dealCreated } from './deal-events';
import { DEAL_COLUMNS, type DealRow } from './deals.mapper';

/**
 * A captured lead opens a deal in the first stage of the tenant's default pipeline (CONTRACT.md §14), for the contact
 * the lead was linked to (contact intake runs first). One deal per lead: a redelivered `lead.captured` finds it there.
 */
@Injectable()
export class LeadDealsService {
  private readonly logger = new Logger('LeadDealsService');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly relay: OutboxRelay,
    private readonly pipelines: PipelinesService,
  ) {}

  async openForLead(tenantId: string, lead: LeadRecord): Promise<void> {
    const opened = await this.db.transaction(async (tx) => {
      const [link]: { contact_id: string }[] = await tx.query(`SELECT contact_id FROM contact_leads WHERE tenant_id = $1 AND lead_id = $2`, [tenantId, lead.id]);
      if (!link) {
        // a lead with neither a number nor an email has no contact, and a deal needs one
        this.logger.warn(`lead ${lead.id} has no contact: no deal opened`);
        return false;
      }
      const pipeline = await this.pipelines.defaultOf(tx, tenantId);
      const [created]: DealRow[] = await tx.query(
        `INSERT INTO deals (id, tenant_id, title, contact_id, pipeline_id, stage, lead_id) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (tenant_id, lead_id) DO NOTHING RETURNING ${DEAL_COLUMNS}`,
        [newId('del'), tenantId, titleOf(lead), link.contact_id, pipeline.id, pipeline.stages[0], lead.id],
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
