import { newId, type ContactImportJob } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { startCrmService, type CrmServiceUnderTest } from '../test/crm-service-under-test';
import { ContactImportWorker } from './contact-import.worker';

describe('crm-service: contact import and export', () => {
  let crm: CrmServiceUnderTest;
  const tenant = newId('ten');

  beforeAll(async () => {
    crm = await startCrmService('crmimports');
  });

  afterAll(async () => {
    await crm?.close();
  });

  const finished = (jobId: string, tenantId = tenant) =>
    pollUntil(
      async () => {
        const job = await crm.call('contacts.import-status', { tenant_id: tenantId, job_id: jobId });
        return job.status === 'completed' || job.status === 'failed' ? job : undefined;
      },
      { description: `import ${jobId} to finish`, timeoutMs: 30_000 },
    );
  const pagesOf = async (jobId: string) =>
    ((await crm.sql.query(`SELECT count(*)::int AS n FROM contact_import_chunks WHERE job_id = $1`, [jobId])) as { n: number }[])[0].n;
  const contactsOf = async (tenantId: string) => {
    const page = await crm.call('contacts.export-page', { tenant_id: tenantId, limit: 1000, cursor: null });
    return new Map(page.data.map((c) => [c.phone, c]));
  };

  it('imports the good rows, reports each bad one with its row number and reason, and updates on a second import', async () => {
    const csv = [
      'Phone,email,NAME,tags,plan,city',
      '+14155550001,ana@example.com,Ana Lima,vip;paid,gold,Lisbon',
      '555-0002,bo@example.com,Bo,,,', // row 2: no E.164 number
      '+14155550003,,Cy,,silver,',
      ',dee@example.com,Dee,,,', // row 4: no number
      '+14155550005,not-an-email,Ed,,,', // row 5
      '"+14155550006","quoted@example.com","Fay, Jr.","a,b",bronze,"Porto"',
    ].join('\n');
    const { job_id } = await crm.call('contacts.import', { tenant_id: tenant, csv });
    expect(job_id).toMatch(/^imp_/);
    const job = await finished(job_id);
    expect(job).toEqual<ContactImportJob>({
      id: job_id,
      status: 'completed',
      total: 6,
      created: 3,
      updated: 0,
      failed: [
        { row: 2, error: expect.stringContaining('E.164') },
        { row: 4, error: 'phone is required' },
        { row: 5, error: 'email must be an email address' },
      ],
      error: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const contacts = await contactsOf(tenant);
    expect(contacts.get('+14155550001')).toMatchObject({ email: 'ana@example.com', name: 'Ana Lima', tags: ['vip', 'paid'], attributes: { plan: 'gold', city: 'Lisbon' } });
    expect(contacts.get('+14155550006')).toMatchObject({ name: 'Fay, Jr.', tags: ['a', 'b'], attributes: { plan: 'bronze', city: 'Porto' } });

    // again, with new details for Ana: tags added, attributes merged, the rest kept
    const again = await finished((await crm.call('contacts.import', { tenant_id: tenant, csv: 'phone,tags,plan\n+14155550001,new,platinum\n+14155550009,,\n' })).job_id);
    expect(again).toMatchObject({ status: 'completed', total: 2, created: 1, updated: 1, failed: [] });
    expect((await contactsOf(tenant)).get('+14155550001')).toMatchObject({ name: 'Ana Lima', tags: ['vip', 'paid', 'new'], attributes: { plan: 'platinum', city: 'Lisbon' } });

    // another tenant's job is not found
    expect((await crm.problemOf('contacts.import-status', { tenant_id: newId('ten'), job_id })).status).toBe(404);
  });

  it('fails a file whose header cannot be read, naming why', async () => {
    const job = await finished((await crm.call('contacts.import', { tenant_id: tenant, csv: 'email,name\na@example.com,A\n' })).job_id);
    expect(job).toMatchObject({ status: 'failed', created: 0, error: expect.stringContaining('phone column') });
  });

  it('resumes a job a dead worker left after its last committed batch', async () => {
    const t = newId('ten');
    const id = newId('imp');
    // the file in three pages, cut mid-row and inside a quoted cell: the parser reads them as one stream
    const pages = ['phone,name\n+14155550101,One\n+141555', '50102,Two\n+14155550103,"Three, ', 'Jr."\n+14155550104,Four\n'];
    // as a worker leaves it when it dies after committing rows 1 and 2 (their contacts were deleted since): its lease ran out
    await crm.sql.query(
      `INSERT INTO contact_imports (id, tenant_id, status, total, next_row, created, worker, lease_until) VALUES ($1, $2, 'running', 4, 3, 2, 'dead', now() - interval '1 second')`,
      [id, t],
    );
    await crm.sql.query(`INSERT INTO contact_import_chunks (job_id, seq, text) SELECT $1, n - 1, text FROM unnest($2::text[]) WITH ORDINALITY AS p(text, n)`, [id, pages]);
    crm.app.get(ContactImportWorker).wake();
    expect(await finished(id, t)).toMatchObject({ status: 'completed', total: 4, created: 4, updated: 0, failed: [] });
    const contacts = await contactsOf(t);
    expect([...contacts.keys()].sort()).toEqual(['+14155550103', '+14155550104']);
    expect(contacts.get('+14155550103')).toMatchObject({ name: 'Three, Jr.' });
    expect(await pagesOf(id)).toBe(0);
  });

  it('keeps a large file in pages of 64 KiB, reads every row of it, and deletes the pages when the job ends', async () => {
    const t = newId('ten');
    // 3,000 rows of ~60 characters: three pages, their ends falling inside rows
    const rows = Array.from({ length: 3000 }, (_, i) => `+1415556${String(i).padStart(4, '0')},Customer ${i},bulk,"City ${i % 7}, Region"`);
    const csv = ['phone,name,tags,city', ...rows].join('\n');
    const { job_id } = await crm.call('contacts.import', { tenant_id: t, csv });
    const stored = (await crm.sql.query(`SELECT count(*)::int AS pages, max(length(text))::int AS longest FROM contact_import_chunks WHERE job_id = $1`, [job_id])) as {
      pages: number;
      longest: number | null;
    }[];
    // the worker may already have finished (and deleted them): otherwise the file is there in pages, never whole
    if (stored[0].pages > 0) expect(stored[0]).toEqual({ pages: Math.ceil(csv.length / (64 * 1024)), longest: 64 * 1024 });
    expect(await finished(job_id, t)).toMatchObject({ status: 'completed', total: 3000, created: 3000, failed: [] });
    const exported = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof crm.call<'contacts.export-page'>>> = await crm.call('contacts.export-page', { tenant_id: t, limit: 1000, cursor });
      exported.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(exported).toHaveLength(3000);
    expect(exported.find((c) => c.phone === '+14155562999')).toMatchObject({ name: 'Customer 2999', tags: ['bulk'], attributes: { city: 'City 3, Region' } });
    expect(await pagesOf(job_id)).toBe(0);
  });

  it('deletes the pages of a file that fails', async () => {
    const { job_id } = await crm.call('contacts.import', { tenant_id: tenant, csv: 'phone,name\n+14155550401,"never closed\n' });
    expect(await finished(job_id)).toMatchObject({ status: 'failed', error: expect.stringContaining('Quote') });
    expect(await pagesOf(job_id)).toBe(0);
  });

  it('exports every contact page by page, oldest first', async () => {
    const t = newId('ten');
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await crm.call('contacts.create', { tenant_id: t, body: { phone: `+1415555020${i}` } })).id);
    const first = await crm.call('contacts.export-page', { tenant_id: t, limit: 3, cursor: null });
    const rest = await crm.call('contacts.export-page', { tenant_id: t, limit: 3, cursor: first.next_cursor });
    expect({ ids: [...first.data, ...rest.data].map((c) => c.id), next: rest.next_cursor }).toEqual({ ids, next: null });
  });

  it('pages only the contacts with a tag when one is given (a campaign audience)', async () => {
    const t = newId('ten');
    const tagged = [];
    for (let i = 0; i < 5; i++) {
      const contact = await crm.call('contacts.create', { tenant_id: t, body: { phone: `+1415555030${i}`, tags: i % 2 ? ['other'] : ['vip', 'paid'] } });
      if (i % 2 === 0) tagged.push(contact.id);
    }
    const first = await crm.call('contacts.export-page', { tenant_id: t, limit: 2, cursor: null, tag: 'vip' });
    const rest = await crm.call('contacts.export-page', { tenant_id: t, limit: 2, cursor: first.next_cursor, tag: 'vip' });
    expect({ ids: [...first.data, ...rest.data].map((c) => c.id), next: rest.next_cursor }).toEqual({ ids: tagged, next: null });
  });
});
