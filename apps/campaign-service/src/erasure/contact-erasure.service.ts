import { Injectable } from '@nestjs/common';
import type { ContactDeletedData } from '@parley/contracts';
import { CampaignsStore } from '../campaigns/campaigns.store';

/**
 * A deleted contact's personal data here (CONTRACT.md §14): its recipient rows keep their message id and status (the
 * campaigns' counts stay exact, and the id still stops a second send) but lose the number and the filled-in template.
 * The placeholder `erased:<contact id>` keeps `(campaign_id, phone)` unique. Idempotent.
 */
@Injectable()
export class ContactErasureService {
  constructor(private readonly campaigns: CampaignsStore) {}

  erase(data: ContactDeletedData): Promise<void> {
    return this.campaigns.eraseContact(data.tenant_id, data.contact_id, data.phone);
  }
}
