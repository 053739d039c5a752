import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { hasPrefix, newId, notFoundProblem, problem, ProblemTypes, type ContactImportJob } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { ContactImportWorker } from './contact-import.worker';
import { MAX_IMPORT_BYTES } from './import-limits';


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
    await this.db.query(`INSERT INTO contact_imports (id, tenant_id, csv) VALUES ($1, $2, $3)`, [id, tenantId, csv]);
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
