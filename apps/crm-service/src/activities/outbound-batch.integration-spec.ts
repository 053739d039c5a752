import { newId } from '@parley/contracts';
import { countStatements } from '@parley/service-kit';
import { startCrmService, type CrmServiceUnderTest } from '../test/crm-service-under-test';
import { ActivitiesService } from './activities.service';
import { outboundMessageEntry } from './activity-entries';

/** Issue 19: message.outbound, the busiest topic crm-service reads, costs one statement per consumed batch. */
describe('crm-service records a batch of outbound messages in one statement', () => {
  let crm: CrmServiceUnderTest;
  beforeAll(async () => {
    crm = await startCrmService('crmoutboundbatch');
  });
  afterAll(() => crm?.close());

  it('inserts the timeline entries of several tenants and customers together, each once however often it comes', async () => {
    const activities = crm.app.get(ActivitiesService);
    const tenants = [newId('ten'), newId('ten')];
    const entries = tenants.flatMap((tenantId, t) =>
      [1, 2, 3].map((i) => ({
        tenantId,
        entry: outboundMessageEntry({ message_id: newId('msg'), channel: 'whatsapp', from: null, to: `+4915100000${t}${i}`, content: { type: 'text', text: `hello ${i}` }, origin: 'api', accepted_at: new Date().toISOString() }),
      })),
    );
    // counted in this work's own async context: the service's background loops may run statements meanwhile
    const statements = await countStatements(() => Promise.all([activities.recordMany(entries.slice(0, 4)), activities.recordMany(entries.slice(4))]));
    expect(statements).toBe(1);

    await activities.recordMany([...entries, entries[0]]);
    const rows = (await crm.sql.query(`SELECT tenant_id, customer, text FROM contact_activities WHERE tenant_id = ANY($1) ORDER BY customer`, [tenants])) as {
      customer: string;
      text: string;
    }[];
    expect(rows.map((r) => r.customer)).toEqual(entries.map((e) => e.entry.customer).sort());
    expect(rows.map((r) => r.text).sort()).toEqual(['hello 1', 'hello 1', 'hello 2', 'hello 2', 'hello 3', 'hello 3']);
  });
});
