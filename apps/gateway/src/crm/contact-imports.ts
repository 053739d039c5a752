import { ProblemTypes, problem, validationProblem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** `POST /api/v1/contacts/import` takes the CSV as a `text/csv` body or one multipart `file` part (CONTRACT.md §14). */
export const CONTACT_IMPORT_ROUTE = '/api/v1/contacts/import';
/** The largest CSV taken (crm-service's limit too): about 100,000 contacts with a few attributes each. */
export const CONTACT_IMPORT_MAX_BYTES = 16 * 1024 * 1024;

const tooLarge = () =>
  new ProblemException(
    problem(413, ProblemTypes.payloadTooLarge, 'Payload Too Large', `A contact import is at most ${CONTACT_IMPORT_MAX_BYTES / 1024 / 1024} MiB.`, [
      { field: 'file', message: `at most ${CONTACT_IMPORT_MAX_BYTES / 1024 / 1024} MiB` },
    ]),
  );

/** Reads `text/csv` bodies as text (the route's body limit applies; other routes never let text/csv through). */
export function registerCsvBodies(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

/** The CSV of an import request: the `text/csv` body, or the one `file` part of a multipart form. */
export async function readContactImport(request: FastifyRequest): Promise<string> {
  const mime = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  let csv: string | null = null;
  if (mime === 'multipart/form-data') {
    try {
      for await (const part of request.parts({ limits: { fileSize: CONTACT_IMPORT_MAX_BYTES, files: 1, fields: 0, parts: 1 } })) {
        if (part.type !== 'file' || part.fieldname !== 'file') {
          throw new ProblemException(validationProblem([{ field: part.fieldname, message: `${part.fieldname} is not an allowed field; send the CSV as one "file" part` }]));
        }
        csv = (await part.toBuffer()).toString('utf8');
      }
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      if (err instanceof ProblemException) throw err;
      throw new ProblemException(problem(400, ProblemTypes.validation, 'Invalid request', 'The multipart body could not be read.'));
    }
  } else if (typeof request.body === 'string') {
    csv = request.body;
  }
  if (csv === null || csv.trim() === '') throw new ProblemException(validationProblem([{ field: 'file', message: 'file must be a CSV with a header row (text/csv body or a multipart "file" part)' }]));
  return csv;
}
