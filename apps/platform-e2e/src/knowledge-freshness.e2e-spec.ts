import type { components } from '@parley/api-client';
import { pollUntil } from '@parley/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signUp } from './support/api';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

// Knowledge that stays fresh (CONTRACT.md §19) over the public API: a sitemap imported page by page (robots.txt
// honoured), each page a document the agent answers from, fetched again on its schedule.

type DocumentImport = components['schemas']['DocumentImport'];

describe('knowledge from a sitemap, kept fresh', () => {
  let platform: Platform;
  let site: Server;
  let siteUrl: string;

  beforeAll(async () => {
    site = createServer((req, res) => {
      const pages: Record<string, string> = {
        '/robots.txt': 'User-agent: *\nDisallow: /bikes/staff/\n',
        '/bikes/rentals.html': '<h1>Rentals</h1><p>An e-bike costs 45 euros a day, helmet included.</p>',
        '/bikes/repairs.html': '<h1>Repairs</h1><p>A full service costs 60 euros and takes two days.</p>',
        '/bikes/staff/rota.html': '<h1>Rota</h1><p>Internal.</p>',
      };
      if (req.url === '/bikes/sitemap.xml') {
        const urls = ['/bikes/rentals.html', '/bikes/repairs.html', '/bikes/staff/rota.html'].map((p) => `<url><loc>${siteUrl}${p}</loc></url>`).join('');
        res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
      } else if (req.url && pages[req.url]) {
        res.writeHead(200, { 'content-type': req.url.endsWith('.txt') ? 'text/plain' : 'text/html' }).end(pages[req.url]);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    platform = await sharedPlatform();
  }, 240_000);

  afterAll(async () => {
    site?.close();
    await platform?.stop();
  });

  it('imports the pages under a sitemap that robots.txt allows, answers from them, and keeps them on a schedule', async () => {
    const { token, api: owner } = await signUp(platform.gateway, 'Radhaus');
    const path = { params: { path: { agent_name: 'front-desk' } } };
    const agent = { name: 'front-desk', instruction: 'You are the front desk of Radhaus, a bike shop.', greeting: '', skills: ['faq_responder' as const] };
    expect((await owner.PUT('/api/v1/agents/{agent_name}', { ...path, body: agent })).response.status).toBe(201);

    const documentsUrl = `${platform.gateway}/api/v1/agents/front-desk/documents`;
    const bad = await http<{ errors: { field: string }[] }>('POST', documentsUrl, { token, json: { sitemap_url: `${siteUrl}/bikes/sitemap.xml`, max_pages: 9999 } });
    expect({ status: bad.status, fields: bad.body.errors?.map((e) => e.field) }).toEqual({ status: 400, fields: ['max_pages'] });
    const queued = await http<DocumentImport>('POST', documentsUrl, { token, json: { sitemap_url: `${siteUrl}/bikes/sitemap.xml`, refresh: 'daily' } });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ import_id: expect.stringMatching(/^imp_/), status: 'queued' });

    const done = await pollUntil(
      async () => {
        const got = await http<DocumentImport>('GET', `${documentsUrl}/imports/${queued.body.import_id}`, { token });
        return got.body.status === 'completed' || got.body.status === 'failed' ? got.body : undefined;
      },
      { timeoutMs: 30_000, description: 'the sitemap import finished' },
    );
    expect(done).toMatchObject({ status: 'completed', pages_found: 3, documents_added: 2, pages_skipped: 1, skipped: [{ url: `${siteUrl}/bikes/staff/rota.html`, reason: "the site's robots.txt does not allow it" }] });

    const documents = await pollUntil(
      async () => {
        const list = (await owner.GET('/api/v1/agents/{agent_name}/documents', path)).data?.data ?? [];
        return list.length === 2 && list.every((d) => d.status === 'ready') ? list : undefined;
      },
      { timeoutMs: 30_000, description: 'both pages ready' },
    );
    for (const d of documents) {
      expect(d).toMatchObject({ source: 'url', refresh: 'daily', last_refresh: null });
      expect(Date.parse(d.next_refresh_at!)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    }
    await pollUntil(
      async () => (await owner.POST('/api/v1/agents/{agent_name}/test', { ...path, body: { message: 'How much is an e-bike for a day?' } })).data?.reply.includes('45 euros'),
      { timeoutMs: 30_000, description: 'the agent answering from the imported rentals page' },
    );
  });
});
