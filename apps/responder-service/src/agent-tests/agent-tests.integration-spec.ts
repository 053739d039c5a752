import { ProblemTypes, Topics, newId, type AgentTestsCompletedEvent, type DocumentChangedData, type RpcPattern, type RpcRequest } from '@parley/contracts';
import { EventPublisher, RpcProblemError, type TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { ResponderHarness, agentRecord } from '../test/responder-harness';

const PARKING = { question: 'Where can I park?', answer: 'Free parking behind the building, entrance on Oak Street.' };
const HOURS = { question: 'What are your opening hours?', answer: 'We open at 9:00 and close at 18:00.' };

/** A business's own test set (CONTRACT.md §19), run per agent version over real Kafka and PostgreSQL. */
describe('responder-service: agent test sets', () => {
  let h: ResponderHarness;
  let completed: TopicProbe<AgentTestsCompletedEvent>;

  beforeAll(async () => {
    h = await ResponderHarness.start('agent-tests');
    completed = await h.kafka.probe<AgentTestsCompletedEvent>(Topics.AgentTestsCompleted);
  });

  afterAll(async () => {
    await completed?.stop();
    await h?.close();
  });

  const call = <P extends RpcPattern>(pattern: P, request: RpcRequest<P>) => h.kafka.rpc.request(pattern, request);
  const problemOf = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(err instanceof RpcProblemError)) throw new Error(`expected a problem, got ${String(err)}`);
    return err.problem;
  };
  const runOf = (tenant: string, version: number) =>
    pollUntil(
      async () => {
        const run = await call('agent-tests.run', { tenant_id: tenant, agent: 'front-desk', version }).catch(() => undefined);
        return run?.status === 'completed' ? run : undefined;
      },
      { description: `the completed test run of v${version}` },
    );

  it('runs the set against each new version, says what the change fixed and broke, and announces it once', async () => {
    const tenant = newId('ten');
    const v1 = agentRecord('front-desk', { faqs: [HOURS] });
    await h.announceAgent(tenant, v1);

    const parking = await call('agent-tests.create', { tenant_id: tenant, agent: 'front-desk', message: 'Where can I park my car?', expect: { contains: 'Oak Street' } });
    const hours = await call('agent-tests.create', { tenant_id: tenant, agent: 'front-desk', message: 'When do you open?', expect: { contains: '9:00', no_answer: false } });
    const dog = await call('agent-tests.create', { tenant_id: tenant, agent: 'front-desk', message: 'Can I bring my dog?', expect: { no_answer: true } });
    expect(parking).toEqual({ id: expect.stringMatching(/^tst_/), agent: 'front-desk', message: 'Where can I park my car?', expect: { contains: 'Oak Street' }, created_at: expect.any(String) });
    const listed = await call('agent-tests.list', { tenant_id: tenant, agent: 'front-desk', limit: 2, cursor: null });
    expect(listed.data.map((t) => t.id)).toEqual([parking.id, hours.id]);
    const rest = await call('agent-tests.list', { tenant_id: tenant, agent: 'front-desk', limit: 2, cursor: listed.next_cursor });
    expect(rest).toEqual({ data: [expect.objectContaining({ id: dog.id })], next_cursor: null });

    // v1 was saved before it had tests: no run
    expect(await problemOf(call('agent-tests.run', { tenant_id: tenant, agent: 'front-desk', version: 1 }))).toMatchObject({ status: 404, type: ProblemTypes.notFound });

    // v2 learns parking but loses the opening hours
    await h.announceAgent(tenant, { ...v1, version: 2, faqs: [PARKING] });
    const run = await runOf(tenant, 2);
    expect(run).toMatchObject({ id: expect.stringMatching(/^run_/), agent: 'front-desk', version: 2, status: 'completed', passed: 2, failed: 1, previous_version: 1 });
    expect(run.fixed).toEqual([parking.id]);
    expect(run.broken).toEqual([hours.id]);
    const hoursCase = run.cases.find((c) => c.test_id === hours.id)!;
    expect(hoursCase).toMatchObject({ ok: false, message: 'When do you open?' });
    expect(hoursCase.failures).toEqual(['does not contain "9:00"', 'says it does not know']);
    expect(run.cases.find((c) => c.test_id === parking.id)).toMatchObject({ ok: true, reply: expect.stringContaining('Oak Street'), failures: [] });

    const announced = await pollUntil(() => completed.messages.find((m) => m.value.tenant_id === tenant), { description: 'agent.tests_completed' });
    expect(announced.key).toBe(`${tenant}:front-desk`);
    expect(announced.value.data).toEqual({ event: 'agent.tests_completed', tenant_id: tenant, agent: 'front-desk', run, at: run.completed_at });
    expectMatchesEventSchema(Topics.AgentTestsCompleted, announced.value);

    // the same change delivered again runs nothing more
    await h.publishAgentChange({ tenant_id: tenant, name: 'front-desk', agent_id: v1.id, version: 2, agent: { ...v1, version: 2, faqs: [PARKING] } });
    await h.announceAgent(tenant, { ...v1, version: 3, faqs: [PARKING, HOURS] });
    const third = await runOf(tenant, 3);
    expect(third).toMatchObject({ passed: 3, failed: 0, fixed: [hours.id], broken: [], previous_version: 2 });
    const runs: { version: number }[] = await h.sql.query(`SELECT version FROM agent_test_runs WHERE tenant_id = $1 ORDER BY version`, [tenant]);
    expect(runs.map((r) => r.version)).toEqual([2, 3]);
    // the third run's announcement leaves after its commit: wait for it, then count
    const both = await pollUntil(() => {
      const mine = completed.messages.filter((m) => m.value.tenant_id === tenant);
      return mine.length >= 2 && mine;
    }, { description: 'agent.tests_completed of both runs' });
    expect(both.map((m) => m.value.data.run.version)).toEqual([2, 3]);
  });

  it("runs the set again when the agent's documents change (no new version), compared with the run before", async () => {
    const tenant = newId('ten');
    const v1 = agentRecord('front-desk', { faqs: [HOURS] });
    await h.announceAgent(tenant, v1);
    const parking = await call('agent-tests.create', { tenant_id: tenant, agent: 'front-desk', message: 'Where can I park my car?', expect: { contains: 'Oak Street' } });
    await h.announceAgent(tenant, { ...v1, version: 2, instruction: `${v1.instruction} Be brief.` });
    expect(await runOf(tenant, 2)).toMatchObject({ trigger: 'version', passed: 0, failed: 1 });

    // a document with the parking answer arrives: the same version runs again and the case is fixed
    const documentId = newId('doc');
    const change: DocumentChangedData = {
      tenant_id: tenant,
      document_id: documentId,
      agent_id: v1.id,
      agent_name: 'front-desk',
      title: 'Visiting us',
      passages: [{ id: `${documentId}#0`, headings: ['Parking'], text: 'Free parking behind the building, entrance on Oak Street.' }],
    };
    const event = EventPublisher.envelope(Topics.DocumentChanged, tenant, change);
    await h.kafka.publisher.publishEvent(event, `${tenant}:${documentId}`);
    const rerun = await pollUntil(
      async () => {
        const run = await call('agent-tests.run', { tenant_id: tenant, agent: 'front-desk', version: 2 });
        return run.trigger === 'documents' && run.status === 'completed' ? run : undefined;
      },
      { description: 'the run of the documents change' },
    );
    expect(rerun).toMatchObject({ version: 2, passed: 1, failed: 0, fixed: [parking.id], broken: [], previous_version: 2 });
    // the same change delivered again runs nothing more; the next change of that document (after it on its key) does
    await h.kafka.publisher.publishEvent(event, `${tenant}:${documentId}`);
    const next = EventPublisher.envelope(Topics.DocumentChanged, tenant, change);
    await h.kafka.publisher.publishEvent(next, `${tenant}:${documentId}`);
    const causes = await pollUntil(
      async () => {
        const rows: { cause: string }[] = await h.sql.query(`SELECT cause FROM agent_test_runs WHERE tenant_id = $1 ORDER BY created_at`, [tenant]);
        return rows.some((r) => r.cause.endsWith(next.id)) ? rows.map((r) => r.cause) : undefined;
      },
      { description: 'the run of the next documents change' },
    );
    expect(causes).toEqual(['version:2', `document:${documentId}:${event.id}`, `document:${documentId}:${next.id}`]);
  });

  it('checks a body before it is saved: the failing cases with their replies, nothing stored', async () => {
    const tenant = newId('ten');
    const v1 = agentRecord('front-desk', { faqs: [HOURS] });
    await h.announceAgent(tenant, v1);
    const hours = await call('agent-tests.create', { tenant_id: tenant, agent: 'front-desk', message: 'When do you open?', expect: { contains: '9:00' } });

    const body = { name: 'front-desk', instruction: v1.instruction, greeting: v1.greeting, skills: v1.skills, faqs: [PARKING] };
    const refused = await call('agent-tests.check', { tenant_id: tenant, agent: 'front-desk', body });
    expect(refused.total).toBe(1);
    expect(refused.failing).toEqual([{ test_id: hours.id, message: 'When do you open?', ok: false, reply: expect.any(String), failures: ['does not contain "9:00"'] }]);
    expect(await call('agent-tests.check', { tenant_id: tenant, agent: 'front-desk', body: { ...body, faqs: [PARKING, HOURS] } })).toEqual({ total: 1, failing: [] });
    const runs: unknown[] = await h.sql.query(`SELECT 1 FROM agent_test_runs WHERE tenant_id = $1`, [tenant]);
    expect(runs).toHaveLength(0);
  });

  it('keeps each tenant to its own tests, and refuses tests of an agent it does not have', async () => {
    const tenant = newId('ten');
    const other = newId('ten');
    await h.announceAgent(tenant, agentRecord('front-desk'));
    await h.announceAgent(other, agentRecord('front-desk'));
    const mine = await call('agent-tests.create', { tenant_id: tenant, agent: 'front-desk', message: 'Hi', expect: { handoff: false } });

    expect((await call('agent-tests.list', { tenant_id: other, agent: 'front-desk', limit: 50, cursor: null })).data).toEqual([]);
    expect(await problemOf(call('agent-tests.delete', { tenant_id: other, agent: 'front-desk', id: mine.id }))).toMatchObject({ status: 404 });
    expect(await problemOf(call('agent-tests.create', { tenant_id: tenant, agent: 'nobody', message: 'Hi', expect: { handoff: false } }))).toMatchObject({ status: 404 });
    expect(await call('agent-tests.delete', { tenant_id: tenant, agent: 'front-desk', id: mine.id })).toEqual({ deleted: true });
    expect((await call('agent-tests.list', { tenant_id: tenant, agent: 'front-desk', limit: 50, cursor: null })).data).toEqual([]);
  });
});
