import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A send through the API finds the customer's latest conversation by tenant and number alone (the default channel). */
export class ConversationsByCustomer1765152000000 implements MigrationInterface {
  name = 'ConversationsByCustomer1765152000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX conversations_by_customer ON conversations (tenant_id, customer, last_message_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX conversations_by_customer`);
  }
}
