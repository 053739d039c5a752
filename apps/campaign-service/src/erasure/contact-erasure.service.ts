import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContactDeletedData } from '@parley/contracts';
import { DataSource } from 'typeorm';

/**
 * A deleted contact's personal data here (CONTRACT.md §14): its recipient rows keep their message id and status (the
 * campaigns' counts stay exact, and the id still stops a second send) but lose the number and the filled-in template.
 * The placeholder `erased:<contact id>` keeps `(campaign_id, phone)` unique. Idempotent.
 */
@Injectable()
export class ContactErasureService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async erase(data: ContactDeletedData): Promise<void> {
    await this.db.query(
      `UPDATE campaign_recipients SET phone = 'erased:' || contact_id, template = NULL, error = NULL
       WHERE tenant_id = $1 AND (contact_id = $2 OR phone = $3) AND phone NOT LIKE 'erased:%'`,
      [data.tenant_id, data.contact_id, data.phone],
    );
  }
}
