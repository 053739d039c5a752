import { Injectable } from '@nestjs/common';
import { hasPrefix, newId, notFoundProblem, problem, ProblemTypes, type ContactImportJob } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { ContactImportWorker } from './contact-import.worker';
import { ContactImportsStore } from './contact-imports.store';
import { importChunks } from './import-chunks';
import { MAX_IMPORT_BYTES } from './import-limits';

/** Pages of the file written per statement (1 MiB of text at most). */
const CHUNKS_PER_INSERT = 16;

/** CSV imports of contacts as durable jobs (CONTRACT.md §14): queued here, worked by ContactImportWorker. */
@Injectable()
export class ContactImportsService {
  constructor(
    private readonly imports: ContactImportsStore,
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
    await this.imports.transaction(async (tx) => {
      await this.imports.insertJob(tenantId, id, tx);
      let seq = 0;
      let pages: string[] = [];
      const write = async () => {
        await this.imports.insertPages(id, seq, pages, tx);
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
    const row = hasPrefix(jobId, 'imp') ? await this.imports.job(tenantId, jobId) : null;
    if (!row) throw new ProblemException(notFoundProblem(`Import "${jobId}"`));
    return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
  }
}
