import { crc32, deflateRawSync } from 'node:zlib';
import { extractEntries, listEntries, readEntry } from './zip.cjs';

interface FileSpec {
  name: string;
  data: Buffer;
  deflate?: boolean;
  /** as jar tools write it: zero sizes and CRC in the local header, the real ones after the data */
  descriptor?: boolean;
}

/** A zip archive as `jar` and `zip` write them: local headers and data, then the central directory, then its end record. */
function zip(files: FileSpec[], comment = ''): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, deflate = true, descriptor = false } of files) {
    const body = deflate ? deflateRawSync(data) : data;
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(descriptor ? 0x8 : 0, 6);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(descriptor ? 0 : crc, 14);
    local.writeUInt32LE(descriptor ? 0 : body.length, 18);
    local.writeUInt32LE(descriptor ? 0 : data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const trailer = Buffer.alloc(descriptor ? 16 : 0);
    if (descriptor) {
      trailer.writeUInt32LE(0x08074b50, 0);
      trailer.writeUInt32LE(crc, 4);
      trailer.writeUInt32LE(body.length, 8);
      trailer.writeUInt32LE(data.length, 12);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(descriptor ? 0x8 : 0, 8);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body, trailer);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + body.length + trailer.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(Buffer.byteLength(comment), 20);
  return Buffer.concat([...locals, directory, end, Buffer.from(comment)]);
}

const model = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251));
const tokenizer = Buffer.from(JSON.stringify({ model: { type: 'WordPiece', vocab: { '[PAD]': 0, '[UNK]': 1 } } }));

describe('tools/models zip reader', () => {
  it('lists the entries of the central directory and reads stored and deflated ones', () => {
    const archive = zip([
      { name: 'META-INF/', data: Buffer.alloc(0), deflate: false },
      { name: 'README', data: Buffer.from('Model card'), deflate: false },
      { name: 'model.onnx', data: model },
    ]);
    const entries = listEntries(archive);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['META-INF/', 0, 0],
      ['README', 0, 10],
      ['model.onnx', 8, 5000],
    ]);
    expect(readEntry(archive, entries[1]).toString()).toBe('Model card');
    expect(readEntry(archive, entries[2]).equals(model)).toBe(true);
  });

  it('takes the sizes from the central directory when the local header has none (jar tools write them after the data)', () => {
    const archive = zip([
      { name: 'tokenizer.json', data: tokenizer, descriptor: true },
      { name: 'model.onnx', data: model, descriptor: true },
    ]);
    const files = extractEntries(archive, ['model.onnx', 'tokenizer.json']);
    expect(files.get('model.onnx')!.equals(model)).toBe(true);
    expect(files.get('tokenizer.json')!.equals(tokenizer)).toBe(true);
  });

  it('finds the end record behind an archive comment', () => {
    const archive = zip([{ name: 'model.onnx', data: model }], 'built by a tool that leaves a comment');
    expect(extractEntries(archive, ['model.onnx']).get('model.onnx')!.equals(model)).toBe(true);
  });

  it('names the entries an archive lacks', () => {
    expect(() => extractEntries(zip([{ name: 'README', data: Buffer.from('x') }]), ['model.onnx', 'tokenizer.json'])).toThrow(
      'the archive has no model.onnx, tokenizer.json',
    );
  });

  it('refuses a damaged or truncated archive rather than returning wrong bytes', () => {
    const archive = zip([{ name: 'model.onnx', data: model, deflate: false }]);
    const flipped = Buffer.from(archive);
    flipped[30 + 'model.onnx'.length + 100] ^= 0xff; // a byte of the stored data
    expect(() => extractEntries(flipped, ['model.onnx'])).toThrow('model.onnx: CRC-32 mismatch (a damaged archive)');
    expect(() => listEntries(archive.subarray(0, 2000))).toThrow('not a zip archive');
    expect(() => listEntries(Buffer.from('<html>404 Not Found</html>'))).toThrow('not a zip archive');
  });
});
