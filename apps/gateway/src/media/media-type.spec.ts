import { ProblemException } from '@parley/service-kit';
import { mediaSample, type SampleType } from './media-samples';
import { checkMediaSize, mediaTypeOf } from './media-type';

function problemOf(run: () => unknown) {
  try {
    run();
  } catch (err) {
    if (err instanceof ProblemException) return err.problem;
    throw err;
  }
  throw new Error('no problem raised');
}

describe('mediaTypeOf: the type of an upload comes from its bytes', () => {
  it.each<[SampleType, string]>([
    ['image/png', 'image/png'],
    ['image/jpeg', 'image/jpeg'],
    ['application/pdf', 'application/pdf'],
    ['audio/mpeg', 'audio/mpeg'],
    ['audio/aac', 'audio/aac'],
    ['audio/ogg', 'audio/ogg'],
    ['video/mp4', 'video/mp4'],
    ['audio/mp4', 'audio/mp4'],
  ])('recognises %s declared as %s', (type, declared) => {
    expect(mediaTypeOf(mediaSample(type), declared)).toBe(type);
  });

  it('takes the content when nothing useful was declared', () => {
    expect(mediaTypeOf(mediaSample('application/pdf'), 'application/octet-stream')).toBe('application/pdf');
    expect(mediaTypeOf(mediaSample('image/jpeg'), '')).toBe('image/jpeg');
  });

  it('refuses a file labelled as another type than its content with 400 naming file', () => {
    const p = problemOf(() => mediaTypeOf(mediaSample('application/pdf'), 'image/png'));
    expect(p.status).toBe(400);
    expect(p.errors).toEqual([{ field: 'file', message: 'file is labelled image/png but its content is application/pdf' }]);
  });

  it('refuses content WhatsApp does not send (a GIF, text, Ogg without Opus) with 415 naming file', () => {
    for (const bytes of [Buffer.from('GIF89a\x01\x00\x01\x00'), Buffer.from('just some text'), Buffer.concat([Buffer.from('OggS'), Buffer.alloc(24), Buffer.from('\x01vorbis')])]) {
      const p = problemOf(() => mediaTypeOf(bytes, 'image/png'));
      expect(p.status).toBe(415);
      expect(p.errors?.[0].field).toBe('file');
    }
  });

  it('holds each type to the Cloud API limit: 5 MiB images, 16 MiB audio and video, 100 MiB PDF', () => {
    expect(() => checkMediaSize(5 * 1024 * 1024, 'image/png')).not.toThrow();
    expect(problemOf(() => checkMediaSize(5 * 1024 * 1024 + 1, 'image/jpeg'))).toMatchObject({ status: 413, errors: [{ field: 'file' }] });
    expect(problemOf(() => checkMediaSize(16 * 1024 * 1024 + 1, 'video/mp4')).status).toBe(413);
    expect(() => checkMediaSize(50 * 1024 * 1024, 'application/pdf')).not.toThrow();
  });
});
