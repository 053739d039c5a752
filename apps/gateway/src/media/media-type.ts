import { MEDIA_TYPES, ProblemTypes, problem, validationProblem, type FieldError } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { filetypeinfo } from 'magic-bytes.js';

/**
 * The media type of an upload, decided by its bytes (magic numbers), never by its name (CONTRACT.md §13). The
 * declared type only chooses between the types one container can hold (an MP4 file is audio or video; an Ogg file is
 * audio only when it carries Opus, which WhatsApp requires).
 */
export function mediaTypeOf(bytes: Buffer, declared: string): string {
  const detected = detect(bytes, declared);
  if (!detected) throw unsupported(`the content of file is not a type WhatsApp sends; allowed: ${allowedTypes()}`);
  if (declared && declared !== 'application/octet-stream' && normalised(declared) !== detected) {
    throw new ProblemException(validationProblem([fileError(`file is labelled ${declared} but its content is ${detected}`)], 'The file is not what it says it is.'));
  }
  return detected;
}

/** The upload is larger than its type allows: 413 naming the limit. */
export function checkMediaSize(size: number, mimeType: string): void {
  const limit = MEDIA_TYPES[mimeType].max_bytes;
  if (size > limit) {
    throw new ProblemException(
      problem(413, ProblemTypes.payloadTooLarge, 'Payload Too Large', `file is ${size} bytes; ${mimeType} may be at most ${limit} bytes (${limit / 1024 / 1024} MiB).`, [
        fileError(`${mimeType} may be at most ${limit / 1024 / 1024} MiB`),
      ]),
    );
  }
}

function detect(bytes: Buffer, declared: string): string | null {
  const found = filetypeinfo(bytes.subarray(0, 4100)).map((t) => t.mime);
  if (found.includes('image/jpeg')) return 'image/jpeg';
  if (found.includes('image/png')) return 'image/png';
  if (found.includes('application/pdf')) return 'application/pdf';
  if (found.includes('audio/aac')) return 'audio/aac';
  if (found.includes('audio/mpeg')) return 'audio/mpeg';
  if (found.includes('application/ogg') || found.includes('audio/ogg')) return isOggOpus(bytes) ? 'audio/ogg' : null;
  if (found.includes('video/mp4') || found.includes('audio/mp4') || found.includes('audio/x-m4a')) return normalised(declared) === 'audio/mp4' ? 'audio/mp4' : 'video/mp4';
  return null;
}

/** Ogg's first page holds the codec's identification header: `OpusHead` for Opus (RFC 7845 §5.1). */
function isOggOpus(bytes: Buffer): boolean {
  return bytes.subarray(0, 512).includes('OpusHead');
}

/** Declared synonyms of the types we name. */
function normalised(declared: string): string {
  const type = declared.toLowerCase();
  if (type === 'image/jpg' || type === 'image/pjpeg') return 'image/jpeg';
  if (type === 'audio/mp3') return 'audio/mpeg';
  if (type === 'audio/x-m4a' || type === 'audio/m4a') return 'audio/mp4';
  if (type === 'audio/opus') return 'audio/ogg';
  return type;
}

const allowedTypes = () => Object.keys(MEDIA_TYPES).join(', ');

function fileError(message: string): FieldError {
  return { field: 'file', message };
}

function unsupported(message: string): ProblemException {
  return new ProblemException(problem(415, ProblemTypes.unsupportedMediaType, 'Unsupported Media Type', message, [fileError(message)]));
}
