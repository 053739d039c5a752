import { getDataSourceToken } from '@nestjs/typeorm';
import { Topics, newId, type DocumentChangedEvent, type DocumentRecord, type DocumentUpload, type UpsertAgentBody } from '@parley/contracts';
import { RpcProblemError, type TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { DataSource } from 'typeorm';
import { startAgentService, type AgentServiceUnderTest } from '../test/agent-service-harness';
import { DocumentRefresher } from './document-refresher';

const clinic: UpsertAgentBody = {
  name: 'clinic',
  instruction: 'You answer questions about Bloom Dental.',
  greeting: 'Hi!',
  skills: ['faq_responder'],
};

/** The pages of the shop's sitemap besides rentals and repairs: 30 pages in all. */
const SHOP_PAGES = Array.from({ length: 28 }, (_, i) => `/shop/bike-${i + 1}.html`);

const PRICES_MD = `# Prices

All prices include a check-up.

## Whitening

Teeth whitening costs $300 per session and takes about an hour.

## Cleaning

A cleaning costs $90.
`;

/** A one-page PDF whose text layer holds `lines`; with no lines, a page with only a drawn shape (no text layer). */
async function pdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  if (lines.length === 0) page.drawRectangle({ x: 50, y: 500, width: 200, height: 100, color: rgb(0.2, 0.4, 0.8) });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 750 - i * 18, size: 12, font }));
  return Buffer.from(await doc.save());
}

const file = (content: Buffer | string, contentType: string, title: string | null = null): DocumentUpload => ({
  kind: 'file',
  title,
  filename: 'upload',
  content_type: contentType,
  data_base64: Buffer.from(content).toString('base64'),
});

describe('agent documents: accepted, processed into passages, announced (real Kafka and PostgreSQL)', () => {
  let service: AgentServiceUnderTest;
  let documents: TopicProbe<DocumentChangedEvent>;
  let sql: DataSource;
  let site: Server;
  let siteUrl: string;
  /** The page `/hours.html` serves (its ETag is its version), null: it fails; and the conditional headers it was asked with. */
  const hoursPage: { version: number; text: string | null; asked: (string | undefined)[] } = { version: 1, text: 'We open at 9:00.', asked: [] };

  beforeAll(async () => {
    service = await startAgentService('documents');
    documents = await service.kafka.probe<DocumentChangedEvent>(Topics.DocumentChanged);
    sql = service.app.get<DataSource>(getDataSourceToken());
    await service.kafka.rpc.request('agents.upsert', { tenant_id: 'ten_A', name: 'clinic', body: clinic });
    site = createServer((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /shop/private/\n');
      } else if (req.url === '/shop/sitemap.xml') {
        const loc = (path: string) => `<url><loc>${path.startsWith('http') ? path : siteUrl + path}</loc></url>`;
        res.writeHead(200, { 'content-type': 'application/xml' });
        const pages = ['/shop/rentals.html', '/shop/repairs.html', ...SHOP_PAGES, '/shop/private/staff.html', 'https://elsewhere.example/x', '/shop/rentals.html'];
        res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages.map(loc).join('')}</urlset>`);
      } else if (req.url && SHOP_PAGES.includes(req.url)) {
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Bike ${req.url.replace(/\D/g, '')}</h1><p>Bike number ${req.url.replace(/\D/g, '')} is for rent.</p>`);
      } else if (req.url === '/shop/rentals.html' || req.url === '/shop/repairs.html') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>${req.url.includes('rentals') ? 'Rentals' : 'Repairs'}</h1><p>${req.url.includes('rentals') ? 'An e-bike costs 45 euros a day.' : 'A service costs 60 euros.'}</p>`);
      } else if (req.url === '/hours.html') {
        hoursPage.asked.push(req.headers['if-none-match']);
        const etag = `"v${hoursPage.version}"`;
        if (hoursPage.text === null) res.writeHead(500).end();
        else if (req.headers['if-none-match'] === etag) res.writeHead(304, { etag }).end();
        else res.writeHead(200, { 'content-type': 'text/markdown', etag }).end(`# Opening hours\n\n${hoursPage.text}`);
      } else if (req.url === '/faq.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<html><body><h1>Parking</h1><p>Free parking behind the clinic on Elm Street.</p></body></html>');
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/faq.html' });
        res.end();
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    site?.close();
    await documents?.stop();
    await service?.close();
  });

  const create = (upload: DocumentUpload, tenant = 'ten_A', agent = 'clinic') => service.kafka.rpc.request('documents.create', { tenant_id: tenant, agent, upload });
  const settled = (id: string, tenant = 'ten_A', timeoutMs = 30_000) =>
    pollUntil(
      async () => {
        const doc = await service.kafka.rpc.request('documents.get', { tenant_id: tenant, agent: 'clinic', id });
        return doc.status !== 'processing' && doc;
      },
      { description: `document ${id} processed`, timeoutMs },
    );
  const announced = (id: string, deleted = false) =>
    pollUntil(() => documents.find((m) => m.value.data.document_id === id && (m.value.data.passages === null) === deleted), {
      description: `document.changed of ${id}${deleted ? ' (tombstone)' : ''}`,
    });
  const problemOf = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => (err instanceof RpcProblemError ? err.problem : err));

  it('accepts Markdown text as processing, then indexes it into passages that keep their headings and announces them', async () => {
    const accepted = await create({ kind: 'json', body: { title: 'Price list', text: PRICES_MD } });
    expect(accepted).toMatchObject({ title: 'Price list', source: 'text', status: 'processing', chunks: null, error: null });
    expect(accepted.id).toMatch(/^doc_/);

    const ready = await settled(accepted.id);
    expect(ready).toMatchObject({ status: 'ready', error: null, chunks: 3 });
    const event = await announced(accepted.id);
    expect(event.key).toBe(`ten_A:${accepted.id}`);
    expectMatchesEventSchema(Topics.DocumentChanged, event.value);
    expect(event.value.data).toMatchObject({ tenant_id: 'ten_A', agent_name: 'clinic', title: 'Price list' });
    expect(event.value.data.passages).toEqual([
      { id: `${accepted.id}#0`, headings: ['Prices'], text: 'All prices include a check-up.' },
      { id: `${accepted.id}#1`, headings: ['Prices', 'Whitening'], text: 'Teeth whitening costs $300 per session and takes about an hour.' },
      { id: `${accepted.id}#2`, headings: ['Prices', 'Cleaning'], text: 'A cleaning costs $90.' },
    ]);
    // The upload is kept only until processed.
    const [row] = await sql.query('SELECT raw IS NULL AS gone FROM documents WHERE id = $1', [accepted.id]);
    expect(row.gone).toBe(true);
  });

  it('indexes uploaded plain text, HTML (headings kept, scripts and navigation dropped) and a PDF text layer', async () => {
    const plain = await create(file('We are open Monday to Friday.\n\nClosed on public holidays.', 'text/plain', 'Hours'));
    const html = await create(
      file(
        '<html><head><script>var tracking = 1;</script></head><body><nav>Home | About</nav><h1>Insurance</h1><h2>Accepted plans</h2><p>We accept Cigna &amp; Aetna.</p></body></html>',
        'text/html',
      ),
    );
    const fromPdf = await create(file(await pdf(['Emergency line', 'Call 555-0100 for dental emergencies at night.']), 'application/pdf', 'Emergencies'));
    expect(html.title).toBe('upload');

    for (const doc of [plain, html, fromPdf]) expect(await settled(doc.id)).toMatchObject({ status: 'ready', source: 'file' });
    expect((await announced(plain.id)).value.data.passages).toEqual([{ id: `${plain.id}#0`, headings: [], text: 'We are open Monday to Friday.\nClosed on public holidays.' }]);
    expect((await announced(html.id)).value.data.passages).toEqual([{ id: `${html.id}#0`, headings: ['Insurance', 'Accepted plans'], text: 'We accept Cigna & Aetna.' }]);
    const pdfPassages = (await announced(fromPdf.id)).value.data.passages ?? [];
    expect(pdfPassages.map((p) => p.text).join(' ')).toContain('Call 555-0100 for dental emergencies at night.');
  });

  it('fails a PDF with no text layer, saying why, and announces nothing for it', async () => {
    const scanned = await create(file(await pdf([]), 'application/pdf', 'Scan'));
    expect(await settled(scanned.id)).toMatchObject({ status: 'failed', chunks: null, error: expect.stringContaining('no text layer') });
    expect(documents.messages.some((m) => m.value.data.document_id === scanned.id)).toBe(false);
  });

  it('fetches a URL document (development mode allows a local http server), and fails a 404 or a redirect with the reason', async () => {
    const page = await create({ kind: 'json', body: { url: `${siteUrl}/faq.html` } });
    expect(page).toMatchObject({ source: 'url', url: `${siteUrl}/faq.html`, title: `127.0.0.1:${new URL(siteUrl).port}`, status: 'processing' });
    const missing = await create({ kind: 'json', body: { title: 'Gone', url: `${siteUrl}/nothing` } });
    const moved = await create({ kind: 'json', body: { title: 'Moved', url: `${siteUrl}/moved` } });

    expect(await settled(page.id)).toMatchObject({ status: 'ready', chunks: 1 });
    expect((await announced(page.id)).value.data.passages).toEqual([{ id: `${page.id}#0`, headings: ['Parking'], text: 'Free parking behind the clinic on Elm Street.' }]);
    expect(await settled(missing.id)).toMatchObject({ status: 'failed', error: 'the URL answered 404' });
    expect(await settled(moved.id)).toMatchObject({ status: 'failed', error: expect.stringContaining('redirect') });
  });

  it('refreshes a URL document on its schedule: a 304 costs nothing, a changed page replaces its passages and is announced, a failure keeps them and says why', async () => {
    const page = await create({ kind: 'json', body: { title: 'Hours', url: `${siteUrl}/hours.html`, refresh: 'daily' } });
    const ready = await settled(page.id);
    expect(ready).toMatchObject({ status: 'ready', refresh: 'daily', last_refresh: null });
    // due a day on, give or take the hour that spreads refreshes out
    const dueInHours = (Date.parse(ready.next_refresh_at!) - Date.now()) / 3_600_000;
    expect(dueInHours).toBeGreaterThan(23.9);
    expect(dueInHours).toBeLessThan(25.1);
    const refresher = service.app.get(DocumentRefresher);
    const refreshNow = async (expected: string) => {
      const before = (await service.kafka.rpc.request('documents.get', { tenant_id: 'ten_A', agent: 'clinic', id: page.id })).last_refresh?.at ?? '';
      await sql.query(`UPDATE documents SET next_refresh_at = now() WHERE id = $1`, [page.id]);
      refresher.wake();
      return pollUntil(
        async () => {
          const doc = await service.kafka.rpc.request('documents.get', { tenant_id: 'ten_A', agent: 'clinic', id: page.id });
          return doc.last_refresh && doc.last_refresh.at > before ? doc : undefined;
        },
        { description: `a ${expected} refresh of ${page.id}` },
      );
    };

    const unchanged = await refreshNow('unchanged');
    expect(unchanged).toMatchObject({ last_refresh: { status: 'unchanged' }, chunks: 1 });
    expect(hoursPage.asked).toEqual([undefined, '"v1"']);

    hoursPage.version = 2;
    hoursPage.text = 'We open at 8:00 from January.';
    expect(await refreshNow('updated')).toMatchObject({ last_refresh: { status: 'updated' }, chunks: 1 });
    const changed = await pollUntil(() => documents.find((m) => m.value.data.document_id === page.id && m.value.data.passages?.[0]?.text === 'We open at 8:00 from January.'), {
      description: 'document.changed with the new passages',
    });
    expect(changed.value.data.passages).toEqual([{ id: `${page.id}#0`, headings: ['Opening hours'], text: 'We open at 8:00 from January.' }]);
    expectMatchesEventSchema(Topics.DocumentChanged, changed.value);

    hoursPage.text = null;
    const failed = await refreshNow('failed');
    expect(failed).toMatchObject({ status: 'ready', chunks: 1, last_refresh: { status: 'failed', error: 'the URL answered 500' } });
    const retryInMinutes = (Date.parse(failed.next_refresh_at!) - Date.now()) / 60_000;
    expect(retryInMinutes).toBeGreaterThan(55);
    expect(retryInMinutes).toBeLessThan(61);
    // the last good passages stay: nothing announced for the failure
    expect(documents.messages.filter((m) => m.value.data.document_id === page.id).map((m) => m.value.data.passages?.[0]?.text)).toEqual(['We open at 9:00.', 'We open at 8:00 from January.']);
  });

  it('imports a sitemap of 30 pages as 30 documents, robots.txt and other sites left out saying why, at most max_pages', async () => {
    const agent = 'shop';
    await service.kafka.rpc.request('agents.upsert', { tenant_id: 'ten_A', name: agent, body: { ...clinic, name: agent } });
    const importOf = (body: Record<string, unknown>) => service.kafka.rpc.request('documents.import', { tenant_id: 'ten_A', agent, body });
    const finished = (id: string) =>
      pollUntil(
        async () => {
          const got = await service.kafka.rpc.request('documents.import-get', { tenant_id: 'ten_A', agent, id });
          return got.status === 'completed' || got.status === 'failed' ? got : undefined;
        },
        { description: `import ${id} finished` },
      );

    const queued = await importOf({ sitemap_url: `${siteUrl}/shop/sitemap.xml`, refresh: 'weekly' });
    expect(queued).toMatchObject({ import_id: expect.stringMatching(/^imp_/), agent, status: 'queued', max_pages: 100, refresh: 'weekly', pages_found: null });
    const done = await finished(queued.import_id);
    expect(done).toMatchObject({ status: 'completed', pages_found: 32, documents_added: 30, pages_skipped: 2, error: null });
    expect(done.skipped).toEqual([
      { url: `${siteUrl}/shop/private/staff.html`, reason: "the site's robots.txt does not allow it" },
      { url: 'https://elsewhere.example/x', reason: 'not under the sitemap (another site or folder)' },
    ]);
    const listed = await service.kafka.rpc.request('documents.list', { tenant_id: 'ten_A', agent, limit: 50, cursor: null });
    expect(listed.data).toHaveLength(30);
    expect(listed.data.map((d) => d.url).sort()).toEqual(['/shop/rentals.html', '/shop/repairs.html', ...SHOP_PAGES].map((p) => siteUrl + p).sort());
    expect(listed.data.find((d) => d.url === `${siteUrl}/shop/rentals.html`)).toMatchObject({ title: `127.0.0.1:${new URL(siteUrl).port}/shop/rentals.html`, refresh: 'weekly' });
    // each page is then processed and announced as any url document
    const ready = await pollUntil(
      async () => {
        const page = await service.kafka.rpc.request('documents.list', { tenant_id: 'ten_A', agent, limit: 50, cursor: null });
        return page.data.every((d) => d.status === 'ready' && d.chunks === 1) ? page.data : undefined;
      },
      { description: 'the 30 pages ready', timeoutMs: 60_000 },
    );
    for (const d of ready) await announced(d.id);

    // again: the pages it has are not added twice; a sitemap that is not there fails saying why
    const again = await finished((await importOf({ sitemap_url: `${siteUrl}/shop/sitemap.xml`, max_pages: 1 })).import_id);
    expect(again).toMatchObject({ status: 'completed', documents_added: 0, pages_skipped: 32 });
    expect(again.skipped.filter((p) => p.reason === 'already a document of this agent')).toHaveLength(30);
    const missing = await finished((await importOf({ sitemap_url: `${siteUrl}/shop/nothing.xml` })).import_id);
    expect(missing).toMatchObject({ status: 'failed', documents_added: 0, error: 'the sitemap could not be read: the URL answered 404' });
    expect(await problemOf(service.kafka.rpc.request('documents.import-get', { tenant_id: 'ten_B', agent, id: queued.import_id }))).toMatchObject({ status: 404 });
  });

  it('answers a broken body or a file that is not what it claims with a 400 naming the field', async () => {
    const cases: [DocumentUpload, string, string][] = [
      [{ kind: 'json', body: { text: 'no title' } }, 'title', 'title is required'],
      [{ kind: 'json', body: { title: 'Both', text: 'x', url: 'https://example.com' } }, 'url', 'not both'],
      [{ kind: 'json', body: { title: 'Notes', text: 'x', refresh: 'daily' } }, 'refresh', 'url and sitemap documents only'],
      [{ kind: 'json', body: { url: 'https://example.com/faq', refresh: 'hourly' } }, 'refresh', 'one of: off, daily, weekly'],
      [{ kind: 'json', body: { title: 'Nothing' } }, 'text', 'url or sitemap_url is required'],
      [{ kind: 'json', body: { url: 'https://example.com/a', max_pages: 5 } }, 'max_pages', 'goes with sitemap_url'],
      [{ kind: 'json', body: { sitemap_url: 'https://example.com/sitemap.xml', max_pages: 501 } }, 'max_pages', 'from 1 to 500'],
      [{ kind: 'json', body: { title: 'Odd', text: 'x', colour: 'red' } }, 'colour', 'not an allowed field'],
      [{ kind: 'json', body: { url: 'ftp://example.com/file.txt' } }, 'url', 'http(s)'],
      [file('just text', 'application/pdf'), 'file', 'not a PDF'],
      [file(await pdf(['x']), 'text/plain'), 'file', 'is a PDF'],
      [file('x', 'image/png'), 'file', 'not supported'],
    ];
    for (const [upload, field, message] of cases) {
      const problem = await problemOf(create(upload));
      expect({ upload: upload.kind === 'json' ? upload.body : upload.content_type, problem }).toMatchObject({
        problem: { status: 400, errors: [{ field, message: expect.stringContaining(message) }] },
      });
    }
  });

  it("keeps tenants apart: another tenant's document is not found, not listed, not deletable", async () => {
    const doc = await create({ kind: 'json', body: { title: 'Private', text: 'Staff only.' } });
    await service.kafka.rpc.request('agents.upsert', { tenant_id: 'ten_B', name: 'clinic', body: clinic });
    expect(await problemOf(service.kafka.rpc.request('documents.get', { tenant_id: 'ten_B', agent: 'clinic', id: doc.id }))).toMatchObject({ status: 404 });
    expect(await problemOf(service.kafka.rpc.request('documents.delete', { tenant_id: 'ten_B', agent: 'clinic', id: doc.id }))).toMatchObject({ status: 404 });
    expect((await service.kafka.rpc.request('documents.list', { tenant_id: 'ten_B', agent: 'clinic', limit: 50, cursor: null })).data).toEqual([]);
    expect(await problemOf(create({ kind: 'json', body: { title: 'x', text: 'y' } }, 'ten_A', 'nobody'))).toMatchObject({ status: 404 });
  });

  it('lists an agent\'s documents newest first, a page at a time', async () => {
    const first = await service.kafka.rpc.request('documents.list', { tenant_id: 'ten_A', agent: 'clinic', limit: 2, cursor: null });
    expect(first.data).toHaveLength(2);
    expect(first.next_cursor).not.toBeNull();
    const second = await service.kafka.rpc.request('documents.list', { tenant_id: 'ten_A', agent: 'clinic', limit: 100, cursor: first.next_cursor });
    const ids = [...first.data, ...second.data].map((d: DocumentRecord) => d.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('deleting a document announces its tombstone and forgets it', async () => {
    const doc = await create({ kind: 'json', body: { title: 'Old prices', text: 'Whitening used to cost $250.' } });
    await announced(doc.id);
    await service.kafka.rpc.request('documents.delete', { tenant_id: 'ten_A', agent: 'clinic', id: doc.id });
    const tombstone = await announced(doc.id, true);
    expect(tombstone.key).toBe(`ten_A:${doc.id}`);
    expectMatchesEventSchema(Topics.DocumentChanged, tombstone.value);
    expect(await problemOf(service.kafka.rpc.request('documents.get', { tenant_id: 'ten_A', agent: 'clinic', id: doc.id }))).toMatchObject({ status: 404 });
    await pollUntil(async () => (await sql.query('SELECT 1 FROM documents WHERE id = $1', [doc.id])).length === 0, { description: 'the row removed once announced' });
  });

  it('resumes a document whose worker died mid-processing (its lease ran out)', async () => {
    const id = newId('doc');
    const agent = await service.kafka.rpc.request('agents.get', { tenant_id: 'ten_A', name: 'clinic' });
    // As a crashed worker leaves it: claimed once, its lease still running for a moment, the upload still stored.
    await sql.query(
      `INSERT INTO documents (id, tenant_id, agent_id, agent_name, title, source, content_type, raw, status, attempts, lease_until)
       VALUES ($1, 'ten_A', $2, 'clinic', 'Recovered', 'text', 'text/markdown', $3, 'processing', 1, now() + interval '2 seconds')`,
      [id, agent.id, Buffer.from('# Recovered\n\nThis survived a crash.')],
    );
    // Another upload wakes the processor; the claim is not yet claimable, so it then sleeps until that lease runs out
    // (not the 30 s safety sweep) and takes the document over.
    const other = await create({ kind: 'json', body: { title: 'Hours', text: 'Open daily.' } });
    expect(await settled(other.id)).toMatchObject({ status: 'ready' });
    // well before the sweep (30 s after that upload) could have found it
    expect(await settled(id, 'ten_A', 15_000)).toMatchObject({ status: 'ready', chunks: 1 });
    expect((await announced(id)).value.data.passages).toEqual([{ id: `${id}#0`, headings: ['Recovered'], text: 'This survived a crash.' }]);
  });

  it("deleting the agent deletes its documents and announces each one's tombstone", async () => {
    await service.kafka.rpc.request('agents.upsert', { tenant_id: 'ten_A', name: 'shortlived', body: { ...clinic, name: 'shortlived' } });
    const doc = await create({ kind: 'json', body: { title: 'Menu', text: 'Soup of the day.' } }, 'ten_A', 'shortlived');
    await announced(doc.id);
    await service.kafka.rpc.request('agents.delete', { tenant_id: 'ten_A', name: 'shortlived' });
    await announced(doc.id, true);
    await pollUntil(async () => (await sql.query('SELECT 1 FROM documents WHERE id = $1', [doc.id])).length === 0, { description: 'the document row removed' });
  });
});
