import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A customer's email keeps its attachments (media records in the media store: `[{id, mime_type, size, filename}]`) and
 * the SPF/DKIM/DMARC results its headers carried (`{spf, dkim, dmarc, authserv_id}`), both null when it had none.
 */
export class EmailAttachmentsAndAuthentication1765170000000 implements MigrationInterface {
  name = 'EmailAttachmentsAndAuthentication1765170000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN attachments jsonb, ADD COLUMN authentication jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP COLUMN attachments, DROP COLUMN authentication`);
  }
}
