import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The platform's own mail (issue 32): who invited a member (the invitation and its accept page name them), and the
 * outbox of mail owed over SMTP. A mail is written in the transaction that issues its link and sent by the relay,
 * retried until its link expires: the SMTP server being down never loses an invitation. The content (links are
 * credentials) is stored encrypted, and the row goes once the server took the mail; withdrawing an invitation (the
 * member row deleted) takes its unsent mail with it.
 */
export class PlatformMail1795737600000 implements MigrationInterface {
  name = 'PlatformMail1795737600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE members ADD COLUMN invited_by text REFERENCES members(id) ON DELETE SET NULL`);
    await q.query(`
      CREATE TABLE outgoing_mail (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        member_id text REFERENCES members(id) ON DELETE CASCADE,
        kind text NOT NULL,
        recipient text NOT NULL,
        -- {subject, text, html} as JSON, encrypted with ENCRYPTION_KEY (CredentialCipher)
        content text NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        due_at timestamptz NOT NULL DEFAULT now(),
        give_up_at timestamptz NOT NULL,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX outgoing_mail_due ON outgoing_mail (due_at, id)`);
    await q.query(`CREATE INDEX outgoing_mail_tenant ON outgoing_mail (tenant_id, id)`);
    await q.query(`CREATE INDEX outgoing_mail_member ON outgoing_mail (member_id) WHERE member_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE outgoing_mail`);
    await q.query(`ALTER TABLE members DROP COLUMN invited_by`);
  }
}
