import { ListCursors, ProblemException } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import type { OutboxRelay } from '../outbox/outbox-relay';
import type { ContactRow } from './contacts.mapper';
import { ContactsService } from './contacts.service';
import { PhoneTaken, type ContactFields, type ContactsStore } from './contacts.store';

/**
 * ContactsStore's contract in memory for what ContactsService decides on (its SQL runs against PostgreSQL in
 * contacts.integration-spec). The unit of work's `tx` records the events the outbox is asked to queue.
 */
class InMemoryContacts implements Pick<ContactsStore, 'transaction' | 'insert' | 'find' | 'phoneTaken' | 'update' | 'deleteWithTimeline' | 'holdCompany'> {
  readonly rows = new Map<string, ContactRow>();
  readonly companies = new Set<string>(); // "tenant:company"
  readonly queued: string[] = [];

  async transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const pending: string[] = [];
    const tx = { query: async (_sql: string, [topics]: [string[]]) => void pending.push(...topics) } as unknown as EntityManager;
    const result = await work(tx);
    this.queued.push(...pending); // queued only when the unit of work commits
    return result;
  }

  async insert(tenantId: string, id: string, fields: ContactFields): Promise<ContactRow | null> {
    if (fields.phone !== null && (await this.phoneTaken(tenantId, fields.phone))) return null;
    const row: ContactRow = { id, tenant_id: tenantId, ...fields, attributes: fields.attributes as ContactRow['attributes'], opted_out: false, created_at: new Date(), updated_at: new Date() };
    this.rows.set(id, row);
    return { ...row };
  }

  async find(tenantId: string, id: string): Promise<ContactRow | null> {
    const row = this.rows.get(id);
    return row?.tenant_id === tenantId ? { ...row } : null;
  }

  async phoneTaken(tenantId: string, phone: string): Promise<boolean> {
    return [...this.rows.values()].some((r) => r.tenant_id === tenantId && r.phone === phone);
  }

  async update(tenantId: string, id: string, fields: ContactFields): Promise<ContactRow> {
    if (fields.phone !== null && [...this.rows.values()].some((r) => r.tenant_id === tenantId && r.phone === fields.phone && r.id !== id)) throw new PhoneTaken(fields.phone);
    const row = { ...this.rows.get(id)!, ...fields, attributes: fields.attributes as ContactRow['attributes'] };
    this.rows.set(id, row);
    return { ...row };
  }

  async deleteWithTimeline(tenantId: string, id: string): Promise<ContactRow | null> {
    const row = await this.find(tenantId, id);
    if (row) this.rows.delete(id);
    return row;
  }

  async holdCompany(tenantId: string, companyId: string): Promise<boolean> {
    return this.companies.has(`${tenantId}:${companyId}`);
  }
}

function setup() {
  const store = new InMemoryContacts();
  const relay = { wake: () => undefined } as unknown as OutboxRelay;
  return { store, contacts: new ContactsService(store as unknown as ContactsStore, new ListCursors('test-secret'), relay) };
}

const problemOf = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  return err instanceof ProblemException ? err.problem : err;
};

describe('ContactsService', () => {
  it('a number another contact of the tenant has is a 409 naming `phone`, on create and on update; another tenant may have it', async () => {
    const { contacts, store } = setup();
    const ana = await contacts.create('ten_a', { phone: '+14155550100', name: 'Ana' });
    const bo = await contacts.create('ten_a', { phone: '+14155550101', name: 'Bo' });
    expect(await problemOf(contacts.create('ten_a', { phone: '+14155550100' }))).toMatchObject({ status: 409, errors: [{ field: 'phone' }] });
    expect(await problemOf(contacts.update('ten_a', bo.id, { phone: ana.phone }))).toMatchObject({ status: 409, errors: [{ field: 'phone' }] });
    expect((await contacts.create('ten_b', { phone: '+14155550100' })).phone).toBe('+14155550100');
    expect(store.queued).toEqual(['contact.created', 'contact.created', 'contact.created']);
  });

  it("a company of another tenant is no company here: 400 naming `company_id`, the contact unchanged and nothing announced", async () => {
    const { contacts, store } = setup();
    store.companies.add('ten_b:cmp_1');
    const ana = await contacts.create('ten_a', { phone: '+14155550100', name: 'Ana' });
    expect(await problemOf(contacts.update('ten_a', ana.id, { company_id: 'cmp_1' }))).toMatchObject({ status: 400, errors: [{ field: 'company_id' }] });
    expect(store.rows.get(ana.id)?.company_id).toBeNull();
    expect(store.queued).toEqual(['contact.created']);
  });

  it('PATCH changes only the fields given, replacing tags whole, and announces the change', async () => {
    const { contacts, store } = setup();
    const ana = await contacts.create('ten_a', { phone: '+14155550100', name: 'Ana', email: 'ana@example.com', tags: ['vip', 'lead'] });
    const updated = await contacts.update('ten_a', ana.id, { tags: ['customer'] });
    expect(updated).toMatchObject({ name: 'Ana', email: 'ana@example.com', phone: '+14155550100', tags: ['customer'] });
    expect(store.queued.at(-1)).toBe('contact.updated');
  });

  it("another tenant's contact, or an id that is no contact id, is a 404 and stays", async () => {
    const { contacts, store } = setup();
    const ana = await contacts.create('ten_a', { phone: '+14155550100' });
    expect(await problemOf(contacts.get('ten_b', ana.id))).toMatchObject({ status: 404 });
    expect(await problemOf(contacts.delete('ten_b', ana.id))).toMatchObject({ status: 404 });
    expect(await problemOf(contacts.get('ten_a', 'usr_1'))).toMatchObject({ status: 404 });
    expect(store.rows.has(ana.id)).toBe(true);
    await contacts.delete('ten_a', ana.id);
    expect(store.queued.at(-1)).toBe('contact.deleted');
  });
});
