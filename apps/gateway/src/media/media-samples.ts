/**
 * The smallest byte strings each media type is recognised by (their magic numbers), padded to a size: test samples
 * of every type WhatsApp sends, for the unit and end-to-end specs.
 */
export const MEDIA_SAMPLES = {
  'image/png': Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  'image/jpeg': Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  'application/pdf': Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
  'audio/mpeg': Buffer.from('494433030000000000000000', 'hex'),
  'audio/aac': Buffer.from('fff15080003ffc', 'hex'),
  'audio/ogg': Buffer.concat([Buffer.from('OggS'), Buffer.from('0002000000000000000000000000000000000000000000', 'hex'), Buffer.from('OpusHead'), Buffer.from('0101380180bb000000', 'hex')]),
  'video/mp4': Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypisom'), Buffer.from('00000200', 'hex'), Buffer.from('isomiso2')]),
  'audio/mp4': Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypM4A '), Buffer.from('00000200', 'hex'), Buffer.from('M4A isom')]),
} as const;

export type SampleType = keyof typeof MEDIA_SAMPLES;

/** A sample of `type`, `size` bytes long (its header, then random-looking filler). */
export function mediaSample(type: SampleType, size = 1024): Buffer {
  const head = MEDIA_SAMPLES[type];
  const filler = Buffer.alloc(Math.max(0, size - head.length));
  for (let i = 0; i < filler.length; i++) filler[i] = (i * 31 + 7) & 0xff;
  return Buffer.concat([head, filler]);
}
