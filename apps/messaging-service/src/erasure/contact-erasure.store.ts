import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * A deleted contact's personal data here (CONTRACT.md §14): its messages keep their ids, direction, channel and
 * statuses but lose their text, content and the customer's address; what waits for it (windows, queued sends,
 * downloads) goes. Idempotent: a redelivered `contact.deleted` finds nothing left to erase. All of it is SQL in one
 * transaction, so this is a store: the consumer hands it the tenant and the contact's addresses.
 *
 * Kept on purpose: `opt_outs` (a STOP must outlive the contact, or the next import would message them again).
 */
@Injectable()
export class ContactErasureStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Erases what the tenant keeps of the customer at any of `addresses` (numbers, email addresses). */
  async erase(tenantId: string, addresses: readonly string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE messages SET body = '', content = NULL, template = NULL, subject = NULL, html = NULL, error = NULL,
           "from" = CASE WHEN direction = 'inbound' THEN '' ELSE "from" END,
           "to" = CASE WHEN direction = 'outbound' THEN '' ELSE "to" END,
           updated_at = now()
         WHERE tenant_id = $1 AND ((direction = 'inbound' AND "from" = ANY($2)) OR (direction = 'outbound' AND "to" = ANY($2)))`,
        [tenantId, addresses],
      );
      await tx.query(`DELETE FROM customer_windows WHERE customer = ANY($2) AND channel_id IN (SELECT id FROM channels WHERE tenant_id = $1)`, [tenantId, addresses]);
      await tx.query(`DELETE FROM send_queue WHERE tenant_id = $1 AND recipient = ANY($2)`, [tenantId, addresses]);
      await tx.query(`DELETE FROM media_downloads WHERE tenant_id = $1 AND inbound->>'from' = ANY($2)`, [tenantId, addresses]);
    });
  }
}
