import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContactDeletedData } from '@parley/contracts';
import { DataSource } from 'typeorm';

/**
 * A deleted contact's personal data here (CONTRACT.md §14): its conversations with their messages and notes, its
 * leads and appointments, its questions in knowledge gaps and the verdicts on its replies go; the replies already made keep their idempotency rows (so a redelivered old message is
 * still not answered twice) without the events they carried. Idempotent. All of it is SQL in one transaction, so this
 * is a store: the consumer only hands it the event.
 */
@Injectable()
export class ContactErasureStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async erase(data: ContactDeletedData): Promise<void> {
    const addresses = [data.phone, data.email].filter((a): a is string => typeof a === 'string' && a !== '');
    if (addresses.length === 0) return;
    await this.db.transaction(async (tx) => {
      const conversations: { id: string }[] = await tx.query(`SELECT id FROM conversations WHERE tenant_id = $1 AND customer = ANY($2) FOR UPDATE`, [data.tenant_id, addresses]);
      const ids = conversations.map((c) => c.id);
      await tx.query(`DELETE FROM leads WHERE tenant_id = $1 AND (customer = ANY($2) OR phone = ANY($2) OR email = ANY($2) OR conversation_id = ANY($3))`, [data.tenant_id, addresses, ids]);
      await tx.query(`DELETE FROM appointments WHERE tenant_id = $1 AND (customer = ANY($2) OR conversation_id = ANY($3))`, [data.tenant_id, addresses, ids]);
      await tx.query(`UPDATE processed_messages SET events = '[]' WHERE tenant_id = $1 AND conversation_id = ANY($2)`, [data.tenant_id, ids]);
      // A number the playground played is personal data like any other (issue 32).
      await tx.query(`DELETE FROM playground_customers WHERE tenant_id = $1 AND customer = ANY($2)`, [data.tenant_id, addresses]);
      await tx.query(`DELETE FROM contact_names WHERE tenant_id = $1 AND customer = ANY($2)`, [data.tenant_id, addresses]);
      // Their questions leave the knowledge gaps: each wording and gap counts them no more, and what only they asked goes.
      await tx.query(
        `WITH gone AS (DELETE FROM knowledge_gap_occurrences WHERE tenant_id = $1 AND conversation_id = ANY($2) RETURNING gap_id, wording),
              wordings AS (
                UPDATE knowledge_gap_wordings w SET count = w.count - o.n
                  FROM (SELECT gap_id, wording, count(*)::int AS n FROM gone GROUP BY 1, 2) o
                 WHERE w.gap_id = o.gap_id AND w.wording = o.wording)
         UPDATE knowledge_gaps g SET count = g.count - o.n
           FROM (SELECT gap_id, count(*)::int AS n FROM gone GROUP BY 1) o
          WHERE g.tenant_id = $1 AND g.id = o.gap_id`,
        [data.tenant_id, ids],
      );
      await tx.query(`DELETE FROM knowledge_gap_wordings WHERE tenant_id = $1 AND count <= 0`, [data.tenant_id]);
      await tx.query(`DELETE FROM knowledge_gaps WHERE tenant_id = $1 AND count <= 0`, [data.tenant_id]);
      await tx.query(`DELETE FROM message_feedback WHERE tenant_id = $1 AND conversation_id = ANY($2)`, [data.tenant_id, ids]);
      // conversation_messages and conversation_notes go with their conversation (ON DELETE CASCADE)
      await tx.query(`DELETE FROM conversations WHERE tenant_id = $1 AND id = ANY($2)`, [data.tenant_id, ids]);
    });
  }
}
