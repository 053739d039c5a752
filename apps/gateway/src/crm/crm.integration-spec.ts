import { Headers, newId } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { forwardedRoutes } from '../test/forwarded-routes';

describe('gateway: contacts and companies routes', () => {
  const routes = forwardedRoutes('gwcrm', 'crm');
  const { call } = routes;
  const contactId = newId('ctc');
  const companyId = newId('cmp');
  const importId = newId('imp');


  it('refuses bad queries, bodies and impossible ids itself, naming the field, without a call', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    for (const [method, path, body, field] of [
      ['GET', '/contacts?limit=0', undefined, 'limit'],
      ['GET', `/contacts?q=${'x'.repeat(201)}`, undefined, 'q'],
      ['GET', '/contacts?opted_out=maybe', undefined, 'opted_out'],
      ['GET', '/contacts?company_id=acme', undefined, 'company_id'],
      ['GET', '/companies?limit=101', undefined, 'limit'],
      ['POST', '/contacts', { phone: '555-1234' }, 'phone'],
      ['POST', '/contacts', { email: 'nope' }, 'email'],
      ['POST', '/contacts', { attributes: tooMany }, 'attributes'],
      ['POST', '/contacts', { attributes: { address: { city: 'Lisbon' } } }, 'attributes'],
      ['POST', '/contacts', { tags: 'vip' }, 'tags'],
      ['POST', '/contacts', { favourite_colour: 'red' }, 'favourite_colour'],
      ['PATCH', `/contacts/${contactId}`, { company_id: 'acme' }, 'company_id'],
      ['POST', '/companies', { domain: 'example.com' }, 'name'],
      ['PATCH', `/companies/${companyId}`, { domain: 'not a domain' }, 'domain'],
      ['GET', `/contacts/${contactId}/activities?limit=101`, undefined, 'limit'],
      ['POST', `/contacts/${contactId}/activities`, { type: 'meeting', text: 'x' }, 'type'],
      ['POST', `/contacts/${contactId}/activities`, { type: 'note', text: '' }, 'text'],
      ['POST', `/contacts/${contactId}/activities`, { type: 'task', text: 'x', due_at: 'tomorrow' }, 'due_at'],
    ] as [string, string, unknown, string][]) {
      const answer = await call(method, path, body);
      expect({ path, body, status: answer.status, fields: [...new Set(answer.body.errors?.map((e: { field: string }) => e.field))] }).toEqual({ path, body, status: 400, fields: [field] });
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    for (const [method, path] of [
      ['GET', '/contacts/nope'],
      ['GET', `/contacts/${companyId}`],
      ['DELETE', '/contacts/nope'],
      ['GET', `/companies/${contactId}`],
      ['PATCH', '/companies/nope'],
      ['GET', '/contacts/nope/activities'],
    ]) {
      expect({ path, status: (await call(method, path, method === 'PATCH' ? {} : undefined)).status }).toEqual({ path, status: 404 });
    }
    // the import takes a CSV only, and not an empty one; a job id that cannot be one is not found
    const csvCall = (rawBody: string, contentType = 'text/csv') => routes.gw.request('POST', '/api/v1/contacts/import', { token: routes.account.api_key, rawBody, headers: { 'content-type': contentType } });
    expect((await csvCall('{"phone":"+14155550123"}', 'application/json')).status).toBe(415);
    const empty = await csvCall('  \n');
    expect({ status: empty.status, fields: empty.body.errors?.map((e: { field: string }) => e.field) }).toEqual({ status: 400, fields: ['file'] });
    expect((await call('GET', '/contacts/import/nope')).status).toBe(404);
    expect(routes.requests.messages).toEqual([]);
  });

  it('needs a credential', async () => {
    expect((await routes.gw.request('GET', '/api/v1/contacts')).status).toBe(401);
    expect((await routes.gw.request('GET', '/api/v1/companies')).status).toBe(401);
  });

  it('forwards each route to crm-service as its pattern with the caller tenant, and answers 503 when nobody replies', async () => {
    const answers = await Promise.all([
      call('POST', '/contacts', { phone: '+14155550123', name: 'Ana', tags: ['vip'], attributes: { plan: 'gold', seats: 3, trial: false } }),
      call('GET', `/contacts?limit=10&q=ana&tag=vip&company_id=${companyId}&opted_out=false`),
      call('GET', `/contacts/${contactId}`),
      call('PATCH', `/contacts/${contactId}`, { email: null, company_id: companyId }),
      call('DELETE', `/contacts/${contactId}`),
      call('POST', '/companies', { name: 'Acme', domain: 'acme.example' }),
      call('GET', '/companies'),
      routes.gw.request('POST', '/api/v1/contacts/import', { token: routes.account.api_key, rawBody: 'phone,name\n+14155550123,Ana\n', headers: { 'content-type': 'text/csv' } }),
      call('GET', `/contacts/import/${importId}`),
      call('GET', '/contacts/export'),
      call('GET', `/contacts/${contactId}/activities?limit=5`),
      call('POST', `/contacts/${contactId}/activities`, { type: 'task', text: 'Send the quote', due_at: '2030-01-02T03:04:05Z' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503]);
    await pollUntil(() => routes.requests.messages.length >= 12, { description: 'twelve requests on the crm-service topic' });
    const byPattern = Object.fromEntries(routes.requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value]));
    const tenant_id = routes.account.tenant_id;
    expect(byPattern).toEqual({
      'contacts.create': { tenant_id, body: { phone: '+14155550123', name: 'Ana', tags: ['vip'], attributes: { plan: 'gold', seats: 3, trial: false } } },
      'contacts.list': { tenant_id, limit: 10, cursor: null, q: 'ana', tag: 'vip', company_id: companyId, opted_out: false },
      'contacts.get': { tenant_id, id: contactId },
      'contacts.update': { tenant_id, id: contactId, body: { email: null, company_id: companyId } },
      'contacts.delete': { tenant_id, id: contactId },
      'companies.create': { tenant_id, body: { name: 'Acme', domain: 'acme.example' } },
      'companies.list': { tenant_id, limit: 50, cursor: null },
      'contacts.import': { tenant_id, csv: 'phone,name\n+14155550123,Ana\n' },
      'contacts.import-status': { tenant_id, job_id: importId },
      'contacts.export-page': { tenant_id, limit: 1000, cursor: null },
      'contacts.activities': { tenant_id, id: contactId, limit: 5, cursor: null },
      'contacts.add-activity': { tenant_id, id: contactId, body: { type: 'task', text: 'Send the quote', due_at: '2030-01-02T03:04:05Z' } },
    });
  });

  it('takes an import as one multipart file part too', async () => {
    const form = new FormData();
    form.append('file', new Blob(['phone\n+14155550124\n'], { type: 'text/csv' }), 'contacts.csv');
    const answer = await fetch(`${routes.gw.baseUrl}/api/v1/contacts/import`, { method: 'POST', headers: { authorization: `Bearer ${routes.account.api_key}` }, body: form });
    expect(answer.status).toBe(503);
    const forwarded = await pollUntil(() => routes.requests.messages.find((m) => (m.value as { csv?: string }).csv === 'phone\n+14155550124\n'), { description: 'the multipart import forwarded' });
    expect(forwarded.value).toEqual({ tenant_id: routes.account.tenant_id, csv: 'phone\n+14155550124\n' });
  });
});
