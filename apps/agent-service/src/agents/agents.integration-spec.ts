import { RpcProblemError } from '@parley/kafka';
import type { UpsertAgentBody } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { startAgentService, type AgentServiceUnderTest } from '../test/agent-service-harness';

const support: UpsertAgentBody = {
  name: 'support',
  instruction: 'You answer questions about our bakery.',
  greeting: 'Hi! I am the bakery assistant.',
  skills: ['faq_responder', 'lead_capture'],
};

describe('agent-service over Kafka request-reply and PostgreSQL', () => {
  let service: AgentServiceUnderTest;

  beforeAll(async () => {
    service = await startAgentService('agents');
  });

  afterAll(() => service?.close());

  it('creates an agent (201 semantics), announces it on agent.changed, and keeps the version on an identical PUT', async () => {
    const created = await service.kafka.rpc.request('agents.upsert', { tenant_id: 'ten_A', name: 'support', body: support });
    expect(created.created).toBe(true);
    expect(created.agent).toMatchObject({ name: 'support', version: 1, faqs: [], booking: null, skills: ['faq_responder', 'lead_capture'] });
    expect(created.agent.id).toMatch(/^agt_/);

    const event = await pollUntil(() => service.changes.find((m) => m.value.data.agent?.id === created.agent.id), { description: 'agent.changed' });
    expect(event.key).toBe('ten_A:support');
    expect(event.value).toMatchObject({ type: 'agent.changed', tenant_id: 'ten_A', data: { name: 'support', agent: { version: 1 } } });

    const same = await service.kafka.rpc.request('agents.upsert', { tenant_id: 'ten_A', name: 'support', body: { ...support, skills: ['lead_capture', 'faq_responder'] } });
    expect(same).toMatchObject({ created: false, agent: { version: 1 } });

    const changed = await service.kafka.rpc.request('agents.upsert', { tenant_id: 'ten_A', name: 'support', body: { ...support, greeting: 'Hello!' } });
    expect(changed).toMatchObject({ created: false, agent: { version: 2, greeting: 'Hello!' } });
  });

  it("scopes every read and write by tenant: another tenant's agent is not found", async () => {
    await service.kafka.rpc.request('agents.upsert', { tenant_id: 'ten_B', name: 'sales', body: { ...support, name: 'sales' } });
    await expect(service.kafka.rpc.request('agents.get', { tenant_id: 'ten_C', name: 'sales' })).rejects.toMatchObject({ problem: { status: 404 } });
    const list = await service.kafka.rpc.request('agents.list', { tenant_id: 'ten_C', limit: 50, cursor: null });
    expect(list.data).toEqual([]);
    await expect(service.kafka.rpc.request('agents.delete', { tenant_id: 'ten_C', name: 'sales' })).rejects.toBeInstanceOf(RpcProblemError);
    expect((await service.kafka.rpc.request('agents.get', { tenant_id: 'ten_B', name: 'sales' })).name).toBe('sales');
  });

  it('answers a broken body with a 400 problem naming each field', async () => {
    const err = await service.kafka.rpc
      .request('agents.upsert', {
        tenant_id: 'ten_A',
        name: 'bad',
        body: { name: 'other', instruction: '', greeting: 'x', skills: ['juggling'], faqs: [{ question: 'q' }] } as unknown as UpsertAgentBody,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcProblemError);
    const fields = (err as RpcProblemError).problem.errors?.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['instruction', 'skills', 'faqs[0].answer']));
    expect((err as RpcProblemError).problem.errors?.find((e) => e.field === 'skills')?.message).toContain('faq_responder, lead_capture, appointment_booking');
  });

  it('lists newest first with a cursor, and deletes with an announcement', async () => {
    for (const name of ['a1', 'a2', 'a3']) await service.kafka.rpc.request('agents.upsert', { tenant_id: 'ten_L', name, body: { ...support, name } });
    const first = await service.kafka.rpc.request('agents.list', { tenant_id: 'ten_L', limit: 2, cursor: null });
    expect(first.data.map((a) => a.name)).toEqual(['a3', 'a2']);
    const second = await service.kafka.rpc.request('agents.list', { tenant_id: 'ten_L', limit: 2, cursor: first.next_cursor });
    expect(second).toEqual({ data: [expect.objectContaining({ name: 'a1' })], next_cursor: null });

    await service.kafka.rpc.request('agents.delete', { tenant_id: 'ten_L', name: 'a2' });
    await expect(service.kafka.rpc.request('agents.get', { tenant_id: 'ten_L', name: 'a2' })).rejects.toMatchObject({ problem: { status: 404 } });
    await pollUntil(() => service.changes.find((m) => m.value.tenant_id === 'ten_L' && m.value.data.name === 'a2' && m.value.data.agent === null), {
      description: 'the deletion on agent.changed',
    });
  });

  it('keeps every version, lists them newest first, returns a version body, and rolls back by a PUT of an old body', async () => {
    const tenant = 'ten_V';
    await service.kafka.rpc.request('agents.upsert', { tenant_id: tenant, name: 'helper', body: { ...support, name: 'helper' } });
    await service.kafka.rpc.request('agents.upsert', { tenant_id: tenant, name: 'helper', body: { ...support, name: 'helper', greeting: 'v2 greeting' } });
    await service.kafka.rpc.request('agents.upsert', {
      tenant_id: tenant,
      name: 'helper',
      body: { ...support, name: 'helper', greeting: 'v3', faqs: [{ question: 'Open Sunday?', answer: 'No.' }] },
    });

    const first = await service.kafka.rpc.request('agents.versions', { tenant_id: tenant, name: 'helper', limit: 2, cursor: null });
    expect(first.data.map((v) => v.version)).toEqual([3, 2]);
    const rest = await service.kafka.rpc.request('agents.versions', { tenant_id: tenant, name: 'helper', limit: 2, cursor: first.next_cursor });
    expect(rest).toEqual({ data: [{ version: 1, created_at: expect.any(String) }], next_cursor: null });

    const v1 = await service.kafka.rpc.request('agents.version', { tenant_id: tenant, name: 'helper', version: 1 });
    expect(v1.body).toEqual({ name: 'helper', instruction: support.instruction, greeting: support.greeting, skills: support.skills, faqs: [], booking: null });

    // Rollback: the old body PUT again is a change, so it becomes version 4 with version 1's content.
    const rolledBack = await service.kafka.rpc.request('agents.upsert', { tenant_id: tenant, name: 'helper', body: v1.body as UpsertAgentBody });
    expect(rolledBack).toMatchObject({ created: false, agent: { version: 4, greeting: support.greeting, faqs: [] } });

    await expect(service.kafka.rpc.request('agents.version', { tenant_id: tenant, name: 'helper', version: 9 })).rejects.toMatchObject({ problem: { status: 404 } });
    await expect(service.kafka.rpc.request('agents.versions', { tenant_id: 'ten_other', name: 'helper', limit: 10, cursor: null })).rejects.toMatchObject({
      problem: { status: 404 },
    });
    // A cursor is read back only by the list that handed it out (CONTRACT.md §1).
    const refusal = { problem: { status: 400, errors: [{ field: 'cursor', message: expect.any(String) }] } };
    await expect(service.kafka.rpc.request('agents.versions', { tenant_id: tenant, name: 'helper', limit: 10, cursor: 'abc' })).rejects.toMatchObject(refusal);
    await expect(service.kafka.rpc.request('agents.list', { tenant_id: tenant, limit: 10, cursor: first.next_cursor })).rejects.toMatchObject(refusal);
    await expect(service.kafka.rpc.request('agents.list', { tenant_id: tenant, limit: 10, cursor: '2' })).rejects.toMatchObject(refusal);
  });
});
