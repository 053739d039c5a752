import { newId, type StoredMedia } from '@parley/contracts';
import { LocalMediaStore, readAll } from '@parley/service-kit';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMessagingService, type MessagingServiceUnderTest } from '../test/messaging-service-under-test';
import { MediaRetention } from './media-retention';

const tenant = () => `ten_${randomBytes(6).toString('hex')}`;

describe('messaging-service media records: dedupe per tenant, tenant isolation, retention sweep', () => {
  let service: MessagingServiceUnderTest;
  let dir: string;
  let store: LocalMediaStore;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-media-'));
    store = new LocalMediaStore(dir);
    service = await startMessagingService('msgmedia', { MEDIA_DIR: dir, MEDIA_RETENTION_DAYS: '30' });
  });

  afterAll(async () => {
    await service?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Stores bytes as the gateway does (its own key), then has the service record them. */
  async function upload(tenantId: string, bytes: Buffer): Promise<StoredMedia & { key: string }> {
    const id = newId('med');
    const key = `${tenantId}/${id}`;
    await store.put(key, bytes, 'image/png');
    const media = { id, mime_type: 'image/png', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), filename: 'a.png', storage_key: key };
    return { ...(await service.kafka.rpc.request('media.register', { tenant_id: tenantId, media })), key };
  }

  it('answers the first record for the same bytes of the same tenant, and a record of its own to another tenant', async () => {
    const bytes = randomBytes(64);
    const [a, b] = [tenant(), tenant()];
    const first = await upload(a, bytes);
    const again = await upload(a, bytes);
    expect(again.id).toBe(first.id);
    expect(again.storage_key).toBe(first.key); // the caller removes its second copy
    const other = await upload(b, bytes);
    expect(other.id).not.toBe(first.id);
    expect(await service.kafka.rpc.request('media.get', { tenant_id: a, media_id: first.id })).toMatchObject({ id: first.id, size: 64, filename: 'a.png' });
    await expect(service.kafka.rpc.request('media.get', { tenant_id: b, media_id: first.id })).rejects.toMatchObject({ problem: { status: 404 } });
  });

  it('sweeps expired media: the bytes and the record go, the rest stays', async () => {
    const t = tenant();
    const [old, fresh] = [await upload(t, randomBytes(32)), await upload(t, randomBytes(32))];
    await service.sql.query(`UPDATE media SET expires_at = now() - interval '1 second' WHERE id = $1`, [old.id]);
    expect(await service.app.get(MediaRetention).sweep()).toBeGreaterThanOrEqual(1);
    await expect(service.kafka.rpc.request('media.get', { tenant_id: t, media_id: old.id })).rejects.toMatchObject({ problem: { status: 404 } });
    await expect(store.get(old.key)).rejects.toThrow(/no media object/);
    expect((await readAll(await store.get(fresh.key))).length).toBe(32);
    expect(await service.kafka.rpc.request('media.get', { tenant_id: t, media_id: fresh.id })).toMatchObject({ id: fresh.id });
  });
});
