import multipart from '@fastify/multipart';
import { DOCUMENT_FILE_MAX_BYTES, DOCUMENT_FILE_TYPES, ProblemTypes, problem, validationProblem, type DocumentUpload, type FieldError } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The one route that takes `multipart/form-data` (CONTRACT.md §11): a document upload. */
export const DOCUMENT_UPLOAD_ROUTE = '/api/v1/agents/:agent_name/documents';

/** Registers the multipart parser; the gateway's content-type hook lets multipart through on DOCUMENT_UPLOAD_ROUTE only. */
export function registerDocumentUploads(fastify: FastifyInstance): void {
  void fastify.register(multipart, {
    limits: { fileSize: DOCUMENT_FILE_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 100 },
  });
}

const problemOf = (errors: FieldError[]) => new ProblemException(validationProblem(errors, 'The form is not valid.'));

/**
 * Reads an upload form: one `file` (text/plain, text/markdown, text/html or application/pdf; at most 10 MiB) and an
 * optional `title`. The declared type is checked here; agent-service checks the bytes are of that type.
 */
export async function readDocumentUpload(request: FastifyRequest): Promise<Extract<DocumentUpload, { kind: 'file' }>> {
  let title: string | null = null;
  let file: { filename: string | null; contentType: string; data: Buffer } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw problemOf([{ field: part.fieldname, message: `${part.fieldname} is not an allowed field; send the document as "file"` }]);
        const contentType = part.mimetype.split(';')[0].trim().toLowerCase();
        if (!(DOCUMENT_FILE_TYPES as readonly string[]).includes(contentType)) {
          throw problemOf([{ field: 'file', message: `file type "${contentType}" is not supported; allowed: ${DOCUMENT_FILE_TYPES.join(', ')}` }]);
        }
        file = { filename: part.filename || null, contentType, data: await part.toBuffer() };
      } else if (part.fieldname === 'title') {
        title = typeof part.value === 'string' ? part.value.trim() : null;
      } else {
        throw problemOf([{ field: part.fieldname, message: `${part.fieldname} is not an allowed field` }]);
      }
    }
  } catch (err) {
    throw asProblem(err);
  }
  if (!file) throw problemOf([{ field: 'file', message: 'file is required (one document as a multipart "file" part)' }]);
  if (file.data.length === 0) throw problemOf([{ field: 'file', message: 'file is empty' }]);
  if (title !== null && (title.length === 0 || title.length > 200)) throw problemOf([{ field: 'title', message: 'title must be 1 to 200 characters' }]);
  return { kind: 'file', title, filename: file.filename, content_type: file.contentType, data_base64: file.data.toString('base64') };
}

/** @fastify/multipart's limit and format errors as the problem answers of CONTRACT.md §1. */
function asProblem(err: unknown): unknown {
  if (err instanceof ProblemException) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new ProblemException(problem(413, ProblemTypes.payloadTooLarge, 'Payload Too Large', 'The file is larger than 10 MiB.'));
  }
  if (code === 'FST_FILES_LIMIT') return problemOf([{ field: 'file', message: 'send one file per request' }]);
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return problemOf([{ field: 'title', message: 'the form may hold only file and title' }]);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION' || (err instanceof Error && /multipart|boundary/i.test(err.message))) {
    return new ProblemException(problem(400, ProblemTypes.validation, 'Invalid request', 'The multipart body could not be read.'));
  }
  return err;
}
