import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';

/**
 * Where media bytes live (CONTRACT.md §13), shared by the gateway (uploads, downloads) and messaging-service (provider
 * uploads, inbound downloads, the retention sweep). Objects are written once under a key and never changed.
 */
export interface MediaStore {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object's bytes as a stream; MediaObjectMissing when there is none. */
  get(key: string): Promise<Readable>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
}

export class MediaObjectMissing extends Error {
  override name = 'MediaObjectMissing';
  constructor(key: string) {
    super(`no media object "${key}"`);
  }
}

/** The settings of the store, as every app's config class names them. */
export interface MediaStoreSettings {
  /** The local directory (relative to the working directory) used when S3_ENDPOINT is empty. */
  MEDIA_DIR: string;
  /** An S3-compatible endpoint (AWS S3, MinIO, R2, …); empty: the local directory. */
  S3_ENDPOINT: string;
  S3_BUCKET: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
}

/** Keys are ours (`<tenant>/<media id>`), but a key that could leave the directory is refused all the same. */
const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

function checkedKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) throw new Error(`invalid media key "${key}"`);
  return key;
}

export function createMediaStore(settings: MediaStoreSettings): MediaStore {
  if (settings.S3_ENDPOINT) return new S3MediaStore(settings);
  return new LocalMediaStore(resolve(settings.MEDIA_DIR));
}

/** Files under one directory; a write lands under a temporary name first, so a reader never sees half an object. */
export class LocalMediaStore implements MediaStore {
  constructor(private readonly dir: string) {}

  async put(key: string, data: Buffer, _contentType?: string): Promise<void> {
    const path = join(this.dir, checkedKey(key));
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.${Date.now()}.partial`;
    await writeFile(partial, data);
    await rename(partial, path);
  }

  async get(key: string): Promise<Readable> {
    const path = join(this.dir, checkedKey(key));
    try {
      if (!(await stat(path)).isFile()) throw new MediaObjectMissing(key);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new MediaObjectMissing(key);
      throw err;
    }
    return createReadStream(path);
  }

  async delete(key: string): Promise<void> {
    await rm(join(this.dir, checkedKey(key)), { force: true });
  }
}

/** Any S3-compatible store through the official AWS SDK client (path-style addressing, which every one of them takes). */
export class S3MediaStore implements MediaStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: MediaStoreSettings) {
    this.bucket = settings.S3_BUCKET;
    this.client = new S3Client({
      endpoint: settings.S3_ENDPOINT,
      region: settings.S3_REGION,
      forcePathStyle: true,
      ...(settings.S3_ACCESS_KEY_ID ? { credentials: { accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY } } : {}),
    });
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: checkedKey(key), Body: data, ContentType: contentType, ContentLength: data.length }));
  }

  async get(key: string): Promise<Readable> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkedKey(key) }));
      return answer.Body as Readable;
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') throw new MediaObjectMissing(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkedKey(key) }));
  }
}

/** Reads a whole stream (a provider upload needs the bytes at once). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
