import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalMediaStore, MediaObjectMissing, S3MediaStore, createMediaStore, readAll, type MediaStore } from './media-store';

/** s3rver (no type declarations): an S3-compatible server in-process, so the S3 path speaks the real S3 wire protocol. */
interface S3rver {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rverServer = require('s3rver') as new (options: Record<string, unknown>) => S3rver;

const BUCKET = 'parley-media';

describe.each(['local directory', 'S3-compatible (s3rver)'])('media store: %s', (kind) => {
  let store: MediaStore;
  let dir: string;
  let s3: S3rver | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-store-'));
    if (kind === 'local directory') {
      store = createMediaStore({ MEDIA_DIR: dir, S3_ENDPOINT: '', S3_BUCKET: BUCKET, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: '' });
      expect(store).toBeInstanceOf(LocalMediaStore);
    } else {
      s3 = new S3rverServer({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
      const { port } = await s3.run();
      store = createMediaStore({ MEDIA_DIR: dir, S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_BUCKET: BUCKET, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
      expect(store).toBeInstanceOf(S3MediaStore);
    }
  });

  afterAll(async () => {
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives back the bytes put under a key, and nothing once deleted', async () => {
    const bytes = randomBytes(300_000);
    await store.put('ten_a/med_1', bytes, 'image/png');
    expect((await readAll(await store.get('ten_a/med_1'))).equals(bytes)).toBe(true);
    await store.delete('ten_a/med_1');
    await expect(store.get('ten_a/med_1')).rejects.toBeInstanceOf(MediaObjectMissing);
    await store.delete('ten_a/med_1'); // deleting a missing object is not an error
  });

  it('keeps tenants apart by key and refuses a key that could leave its place', async () => {
    await store.put('ten_a/med_2', Buffer.from('a'), 'application/pdf');
    await expect(store.get('ten_b/med_2')).rejects.toBeInstanceOf(MediaObjectMissing);
    await expect(store.put('../escape', Buffer.from('x'), 'image/png')).rejects.toThrow(/invalid media key/);
    await expect(store.get('ten_a/../ten_b/med_2')).rejects.toThrow(/invalid media key/);
  });
});
