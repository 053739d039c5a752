import { ProblemException, ListCursors } from '@parley/service-kit';
import type { WebhookServiceConfig } from '../config/webhook-service.config';
import type { EndpointEntity } from './endpoint.entity';
import { EndpointsService } from './endpoints.service';
import type { EndpointsStore } from './endpoints.store';

/** The store's contract in memory: what EndpointsService decides is tested without PostgreSQL (the store's SQL is exercised by the integration specs). */
class InMemoryEndpoints implements Pick<EndpointsStore, 'insert' | 'list' | 'find' | 'save' | 'delete'> {
  readonly rows = new Map<string, EndpointEntity>();

  async insert(tenantId: string, endpoint: Omit<EndpointEntity, 'tenantId' | 'createdAt' | 'updatedAt'>): Promise<EndpointEntity> {
    const row = { ...endpoint, tenantId, createdAt: new Date(), updatedAt: new Date() } as EndpointEntity;
    this.rows.set(row.id, row);
    return { ...row };
  }

  async list(tenantId: string, limit: number, beforeId: string | null): Promise<EndpointEntity[]> {
    return [...this.rows.values()]
      .filter((r) => r.tenantId === tenantId && (beforeId === null || r.id < beforeId))
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .slice(0, limit);
  }

  async find(tenantId: string, id: string): Promise<EndpointEntity | null> {
    const row = this.rows.get(id);
    return row && row.tenantId === tenantId ? { ...row } : null;
  }

  async save(tenantId: string, endpoint: EndpointEntity): Promise<EndpointEntity> {
    if (endpoint.tenantId !== tenantId) throw new Error('another tenant');
    this.rows.set(endpoint.id, { ...endpoint });
    return endpoint;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return this.rows.get(id)?.tenantId === tenantId && this.rows.delete(id);
  }
}

function service(store = new InMemoryEndpoints()) {
  const endpoints = new EndpointsService(store as unknown as EndpointsStore, { isProduction: false } as WebhookServiceConfig, new ListCursors('test-secret'));
  return { store, endpoints };
}

const statusOf = (err: unknown) => (err instanceof ProblemException ? err.problem.status : undefined);

describe('EndpointsService', () => {
  it('subscribes a new endpoint to every event type unless told which, and shows its secret only on creation', async () => {
    const { endpoints } = service();
    const created = await endpoints.create('ten_a', { url: 'https://example.com/hook' });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.events).toContain('message.received');
    expect(await endpoints.get('ten_a', created.id)).not.toHaveProperty('secret');
  });

  it("answers 404 for another tenant's endpoint on every route, and changes nothing", async () => {
    const { endpoints, store } = service();
    const { id } = await endpoints.create('ten_a', { url: 'https://example.com/hook' });
    for (const call of [
      () => endpoints.get('ten_b', id),
      () => endpoints.update('ten_b', id, { enabled: false }),
      () => endpoints.rotateSecret('ten_b', id),
      () => endpoints.getSecret('ten_b', id),
      () => endpoints.delete('ten_b', id),
    ]) {
      expect(statusOf(await call().catch((err: unknown) => err))).toBe(404);
    }
    expect(store.rows.get(id)?.enabled).toBe(true);
  });

  it('re-enabling an endpoint the service disabled forgets why it was disabled', async () => {
    const { endpoints, store } = service();
    const { id } = await endpoints.create('ten_a', { url: 'https://example.com/hook' });
    Object.assign(store.rows.get(id)!, { enabled: false, disabledReason: 'failing_for_5_days', failingSince: new Date() });
    const updated = await endpoints.update('ten_a', id, { enabled: true });
    expect(updated.enabled).toBe(true);
    expect(store.rows.get(id)).toMatchObject({ disabledReason: null, failingSince: null });
  });

  it('a rotated secret keeps the old one signing beside it for a day', async () => {
    const { endpoints, store } = service();
    const { id, secret: old } = await endpoints.create('ten_a', { url: 'https://example.com/hook' });
    const { secret } = await endpoints.rotateSecret('ten_a', id);
    expect(secret).not.toBe(old);
    const row = store.rows.get(id)!;
    expect(row.previousSecret).toBe(old);
    expect(row.previousSecretExpiresAt!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
  });

  it('pages newest first with a cursor that only this tenant can use', async () => {
    const { endpoints } = service();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await endpoints.create('ten_a', { url: `https://example.com/${i}` })).id);
    await endpoints.create('ten_b', { url: 'https://example.com/b' });
    const first = await endpoints.list('ten_a', 2, null);
    const second = await endpoints.list('ten_a', 2, first.next_cursor);
    expect([...first.data, ...second.data].map((e) => e.id)).toEqual([...ids].sort().reverse());
    expect(second.next_cursor).toBeNull();
    expect(statusOf(await endpoints.list('ten_b', 2, first.next_cursor).catch((err: unknown) => err))).toBe(400);
  });
});
