import { ProblemTypes, newId, type RpcPattern, type RpcRequest } from '@parley/contracts';
import { RpcProblemError } from '@parley/kafka';
import { ResponderHarness } from '../test/responder-harness';

/** Canned replies (CONTRACT.md §18) over real Kafka request-reply and PostgreSQL. */
describe('responder-service: canned replies', () => {
  let h: ResponderHarness;

  beforeAll(async () => {
    h = await ResponderHarness.start('canned');
  });

  afterAll(async () => {
    await h?.close();
  });

  const call = <P extends RpcPattern>(pattern: P, request: RpcRequest<P>) => h.kafka.rpc.request(pattern, request);
  const problemOf = async <P extends RpcPattern>(pattern: P, request: RpcRequest<P>) => {
    const err: unknown = await call(pattern, request).then(
      (answer) => {
        throw new Error(`${pattern} answered ${JSON.stringify(answer)}, not a problem`);
      },
      (e: unknown) => e,
    );
    if (!(err instanceof RpcProblemError)) throw err;
    return { status: err.problem.status, type: err.problem.type, fields: [...new Set((err.problem.errors ?? []).map((e) => e.field))] };
  };
  const create = (tenant: string, shortcut: string, text: string) => call('canned-replies.create', { tenant_id: tenant, body: { shortcut, text } });
  const search = async (tenant: string, q: string | null) => (await call('canned-replies.list', { tenant_id: tenant, limit: 50, cursor: null, q })).data.map((r) => r.shortcut);

  it('keeps a reply with its variables as written, lists them by shortcut and finds them by shortcut or words of the text', async () => {
    const tenant = newId('ten');
    const hours = await create(tenant, 'hours', 'Hi {{contact.name}}, we are open 9–17 on weekdays. {{ agent.name }}');
    expect(hours).toEqual({ id: expect.stringMatching(/^cnr_/), shortcut: 'hours', text: 'Hi {{contact.name}}, we are open 9–17 on weekdays. {{ agent.name }}', created_at: expect.any(String), updated_at: expect.any(String) });
    await create(tenant, 'battery-warranty', 'Batteries have a two-year garantía.');
    await create(tenant, 'address', 'We are at 12 Market Street.');

    expect(await search(tenant, null)).toEqual(['address', 'battery-warranty', 'hours']);
    expect(await search(tenant, 'bat')).toEqual(['battery-warranty']);
    expect(await search(tenant, '/hou')).toEqual(['hours']);
    // Words of the text, every one of them, case and accents ignored.
    expect(await search(tenant, 'GARANTIA two')).toEqual(['battery-warranty']);
    expect(await search(tenant, 'market weekdays')).toEqual([]);
    expect(await search(tenant, '100%_')).toEqual([]);
    expect(await call('canned-replies.get', { tenant_id: tenant, id: hours.id })).toEqual(hours);
  });

  it('pages by shortcut with a cursor', async () => {
    const tenant = newId('ten');
    for (const shortcut of ['c', 'a', 'd', 'b', 'e']) await create(tenant, shortcut, `reply ${shortcut}`);
    const first = await call('canned-replies.list', { tenant_id: tenant, limit: 2, cursor: null });
    expect(first.data.map((r) => r.shortcut)).toEqual(['a', 'b']);
    const second = await call('canned-replies.list', { tenant_id: tenant, limit: 2, cursor: first.next_cursor });
    const third = await call('canned-replies.list', { tenant_id: tenant, limit: 2, cursor: second.next_cursor });
    expect([...second.data, ...third.data].map((r) => r.shortcut)).toEqual(['c', 'd', 'e']);
    expect(third.next_cursor).toBeNull();
    expect(await problemOf('canned-replies.list', { tenant_id: tenant, limit: 2, cursor: 'forged' })).toMatchObject({ status: 400, fields: ['cursor'] });
  });

  it('changes only what a PATCH gives, deletes, and keeps one reply per shortcut (409)', async () => {
    const tenant = newId('ten');
    const reply = await create(tenant, 'thanks', 'Thank you!');
    await create(tenant, 'bye', 'Goodbye');
    const changed = await call('canned-replies.update', { tenant_id: tenant, id: reply.id, body: { text: 'Thank you, {{contact.name}}!' } });
    expect(changed).toMatchObject({ id: reply.id, shortcut: 'thanks', text: 'Thank you, {{contact.name}}!' });
    expect(Date.parse(changed.updated_at)).toBeGreaterThanOrEqual(Date.parse(reply.updated_at));

    expect(await problemOf('canned-replies.create', { tenant_id: tenant, body: { shortcut: 'bye', text: 'again' } })).toEqual({ status: 409, type: ProblemTypes.conflict, fields: ['shortcut'] });
    expect(await problemOf('canned-replies.update', { tenant_id: tenant, id: reply.id, body: { shortcut: 'bye' } })).toEqual({ status: 409, type: ProblemTypes.conflict, fields: ['shortcut'] });
    // Another tenant may use the same shortcut.
    expect(await create(newId('ten'), 'bye', 'Goodbye')).toMatchObject({ shortcut: 'bye' });

    await call('canned-replies.delete', { tenant_id: tenant, id: reply.id });
    expect(await problemOf('canned-replies.get', { tenant_id: tenant, id: reply.id })).toMatchObject({ status: 404 });
    expect(await problemOf('canned-replies.delete', { tenant_id: tenant, id: reply.id })).toMatchObject({ status: 404 });
  });

  it('refuses bad input naming the field: a shortcut people cannot type, empty text, unknown variables, an empty PATCH', async () => {
    const tenant = newId('ten');
    for (const shortcut of ['', 'Opening Hours', '-x', 'a'.repeat(33), 7]) {
      expect({ shortcut, ...(await problemOf('canned-replies.create', { tenant_id: tenant, body: { shortcut, text: 'x' } })) }).toMatchObject({ shortcut, status: 400, fields: ['shortcut'] });
    }
    for (const text of ['', 'Hi {{contact.phone}}', 'Hi {{customer}}', 'x'.repeat(4097)]) {
      expect(await problemOf('canned-replies.create', { tenant_id: tenant, body: { shortcut: 'ok', text } })).toMatchObject({ status: 400, fields: ['text'] });
    }
    const reply = await create(tenant, 'ok', 'fine');
    expect(await problemOf('canned-replies.update', { tenant_id: tenant, id: reply.id, body: {} })).toMatchObject({ status: 400, fields: ['text'] });
    expect(await problemOf('canned-replies.update', { tenant_id: tenant, id: reply.id, body: { text: '{{agent.email}}' } })).toMatchObject({ status: 400, fields: ['text'] });
  });

  it("keeps tenants apart: another tenant's reply is not found and never listed", async () => {
    const [mine, theirs] = [newId('ten'), newId('ten')];
    const secret = await create(theirs, 'secret', 'Their words');
    expect(await search(mine, 'secret')).toEqual([]);
    expect(await search(mine, null)).toEqual([]);
    for (const pattern of ['canned-replies.get', 'canned-replies.delete'] as const) {
      expect(await problemOf(pattern, { tenant_id: mine, id: secret.id })).toMatchObject({ status: 404 });
    }
    expect(await problemOf('canned-replies.update', { tenant_id: mine, id: secret.id, body: { text: 'mine now' } })).toMatchObject({ status: 404 });
    expect(await call('canned-replies.get', { tenant_id: theirs, id: secret.id })).toEqual(secret);
  });
});
