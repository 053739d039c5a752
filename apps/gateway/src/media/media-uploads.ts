import { MEDIA_MAX_BYTES, ProblemTypes, problem, validationProblem, type FieldError } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';

/** `POST /api/v1/media` takes `multipart/form-data` (CONTRACT.md §13); see the body types in gateway-app.ts. */
export const MEDIA_UPLOAD_ROUTE = '/api/v1/media';

export interface MediaUpload {
  filename: string | null;
  /** The part's declared content type (only a hint: the bytes decide, see mediaTypeOf). */
  declaredType: string;
  data: Buffer;
}

const problemOf = (errors: FieldError[]) => new ProblemException(validationProblem(errors, 'The form is not valid.'));

/** Reads the one `file` part of an upload, up to the largest size any media type allows. */
export async function readMediaUpload(request: FastifyRequest): Promise<MediaUpload> {
  let upload: MediaUpload | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 0, parts: 1 } })) {
      if (part.type !== 'file' || part.fieldname !== 'file') throw problemOf([{ field: part.fieldname, message: `${part.fieldname} is not an allowed field; send the media as one "file" part` }]);
      upload = { filename: part.filename ? part.filename.slice(0, 255) : null, declaredType: part.mimetype.split(';')[0].trim().toLowerCase(), data: await part.toBuffer() };
    }
  } catch (err) {
    throw asProblem(err);
  }
  if (!upload) throw problemOf([{ field: 'file', message: 'file is required (one media file as a multipart "file" part)' }]);
  if (upload.data.length === 0) throw problemOf([{ field: 'file', message: 'file is empty' }]);
  return upload;
}

/** @fastify/multipart's limit and format errors as the problem answers of CONTRACT.md §1. */
function asProblem(err: unknown): unknown {
  if (err instanceof ProblemException) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    const limit = `${MEDIA_MAX_BYTES / 1024 / 1024} MiB`;
    return new ProblemException(problem(413, ProblemTypes.payloadTooLarge, 'Payload Too Large', `file is larger than any media type allows (${limit}).`, [{ field: 'file', message: `at most ${limit}` }]));
  }
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return problemOf([{ field: 'file', message: 'send exactly one "file" part and nothing else' }]);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION' || (err instanceof Error && /multipart|boundary/i.test(err.message))) {
    return new ProblemException(problem(400, ProblemTypes.validation, 'Invalid request', 'The multipart body could not be read.'));
  }
  return err;
}
