import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContactDeletedData } from '@parley/contracts';
import { DataSource } from 'typeorm';

/** The customer's addresses a deleted contact had: its number and its email (either may be null). */
export const erasedAddresses = (data: ContactDeletedData): string[] => [data.phone, data.email].filter((a): a is string => typeof a === 'string' && a !== '');

/**
 * A deleted contact's personal data here (CONTRACT.md §14): its messages keep their ids, direction, channel and
 * statuses but lose their text, content and the customer's address; what waits for it (windows, queued sends,
 * downloads) goes. Idempotent: a redelivered `contact.deleted` finds nothing left to erase.
 *
 * Kept on purpose: `opt_outs` (a STOP must outlive the contact, or the next import would message them again).
 */
@Injectable()
export class ContactErasureService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async erase(data: ContactDeletedData): Promise<void> {
    const addresses = erasedAddresses(data);
    if (addresses.length === 0) return;
    await this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE messages SET body = '', content = NULL, template = NULL, subject = NULL, html = NULL, error = NULL,
           "from" = CASE WHEN direction = 'inbound' THEN '' ELSE "from" END,
           "to" = CASE WHEN direction = 'outbound' THEN '' ELSE "to" END,
           updated_at = now()
         WHERE tenant_id = $1 AND ((direction = 'inbound' AND "from" = ANY($2)) OR (direction = 'outbound' AND "to" = ANY($2)))`,
        [data.tenant_id, addresses],
      );
      await tx.query(`DELETE FROM customer_windows WHERE customer = ANY($2) AND channel_id IN (SELECT id FROM channels WHERE tenant_id = $1)`, [data.tenant_id, addresses]);
      await tx.query(`DELETE FROM send_queue WHERE tenant_id = $1 AND recipient = ANY($2)`, [data.tenant_id, addresses]);
      await tx.query(`DELETE FROM media_downloads WHERE tenant_id = $1 AND inbound->>'from' = ANY($2)`, [data.tenant_id, addresses]);
    });
  }
}
