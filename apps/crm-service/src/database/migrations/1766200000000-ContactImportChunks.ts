import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An import's file in pages (issue 19): `contact_import_chunks` holds it 64 KiB at a time, in order, and the worker
 * reads it a page at a time; the job row no longer carries it whole. A job still to finish keeps its file as one page;
 * a finished job's file was needed no more and goes (as the worker now deletes the pages when a job ends).
 */
export class ContactImportChunks1766200000000 implements MigrationInterface {
  name = 'ContactImportChunks1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contact_import_chunks (
        job_id text NOT NULL REFERENCES contact_imports (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        text text NOT NULL,
        PRIMARY KEY (job_id, seq)
      )`);
    await q.query(`INSERT INTO contact_import_chunks (job_id, seq, text) SELECT id, 0, csv FROM contact_imports WHERE status IN ('queued', 'running') AND csv <> ''`);
    await q.query(`ALTER TABLE contact_imports DROP COLUMN csv`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE contact_imports ADD COLUMN csv text NOT NULL DEFAULT ''`);
    await q.query(`UPDATE contact_imports i SET csv = c.csv FROM (SELECT job_id, string_agg(text, '' ORDER BY seq) AS csv FROM contact_import_chunks GROUP BY job_id) c WHERE c.job_id = i.id`);
    await q.query(`ALTER TABLE contact_imports ALTER COLUMN csv DROP DEFAULT`);
    await q.query(`DROP TABLE contact_import_chunks`);
  }
}
