import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { hasPrefix, newId, notFoundProblem, problem, ProblemTypes, type ContactImportJob } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { ContactImportWorker } from './contact-import.worker';
import { importChunks } from './import-chunks';
import { MAX_IMPORT_BYTES } from './import-limits';

/** Pages of the file written per statement (1 MiB of text at most). */
const CHUNKS_PER_INSERT = 16;

interface JobRow {
  id: string;
  status: ContactImportJob['status'];
  total: number | null;
  created: number;
  updated: number;
  failed: { row: number; error: string }[];
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** CSV imports of contacts as durable jobs (CONTRACT.md §14): queued here, worked by ContactImportWorker. */
@Injectable()
export class ContactImportsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly worker: ContactImportWorker,
  ) {}

  async start(tenantId: string, csv: unknown): Promise<{ job_id: string }> {
    if (typeof csv !== 'string' || csv.trim() === '') {
      throw new ProblemException(problem(400, ProblemTypes.validation, 'Invalid request', 'The CSV is empty.', [{ field: 'file', message: 'file must be a CSV with a header row' }]));
    }
    if (Buffer.byteLength(csv) > MAX_IMPORT_BYTES) {
      throw new ProblemException(problem(413, ProblemTypes.payloadTooLarge, 'Payload Too Large', `A CSV import is at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB.`));
    }
    const id = newId('imp');
    // the file in pages, with its job in one transaction: the worker reads a page at a time, never the whole file
    await this.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO contact_imports (id, tenant_id) VALUES ($1, $2)`, [id, tenantId]);
      let seq = 0;
      let pages: string[] = [];
      const write = async () => {
        await tx.query(`INSERT INTO contact_import_chunks (job_id, seq, text) SELECT $1, $2 + n - 1, text FROM unnest($3::text[]) WITH ORDINALITY AS p(text, n)`, [id, seq, pages]);
        seq += pages.length;
        pages = [];
      };
      for (const page of importChunks(csv)) {
        pages.push(page);
        if (pages.length >= CHUNKS_PER_INSERT) await write();
      }
      if (pages.length > 0) await write();
    });
    this.worker.wake();
    return { job_id: id };
  }

  async status(tenantId: string, jobId: string): Promise<ContactImportJob> {
    const [row]: JobRow[] = hasPrefix(jobId, 'imp')
      ? await this.db.query(
          `SELECT id, status, total, created, updated, failed, error, created_at, updated_at FROM contact_imports WHERE tenant_id = $1 AND id = $2`,
          [tenantId, jobId],
        )
      : [];
    if (!row) throw new ProblemException(notFoundProblem(`Import "${jobId}"`));
    return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
  }
}
