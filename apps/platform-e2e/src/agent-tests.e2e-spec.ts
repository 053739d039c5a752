import type { components } from '@parley/api-client';
import { pollUntil } from '@parley/testing';
import { signUp } from './support/api';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';
import { WebhookReceiver } from './support/webhook-receiver';

// The agent improvement loop's test sets (CONTRACT.md §19) over the public API: the owner writes what customers ask
// and what the answer must be; every change to the agent runs them and says what it fixed and broke; a change may be
// refused when a case fails.

type TestRun = components['schemas']['AgentTestRun'];

const HOURS = { question: 'What are your opening hours?', answer: 'We are open 10:00 to 22:00 every day.' };
const PARKING = { question: 'Where can I park?', answer: 'Park free in the yard behind the gym; the gate code is at the desk.' };
const AGENT: components['schemas']['UpsertAgentBody'] = {
  name: 'front-desk',
  instruction: 'You are the front desk of Harbour Climbing, a bouldering gym.',
  greeting: '',
  skills: ['faq_responder'],
  faqs: [HOURS],
};

describe('agent test sets: what customers ask and what the answer must be, run on every change', () => {
  let platform: Platform;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await sharedPlatform();
  }, 240_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  });

  it('runs the set on a change, says what it fixed and broke, announces it, and refuses a change that fails with require_tests=pass', async () => {
    const { token, api: owner } = await signUp(platform.gateway, 'Harbour Climbing Tests');
    const agentPath = { params: { path: { agent_name: 'front-desk' } } };
    expect((await owner.PUT('/api/v1/agents/{agent_name}', { ...agentPath, body: AGENT })).response.status).toBe(201);
    expect((await owner.POST('/api/v1/webhooks', { body: { url: receiver.url, events: ['agent.tests_completed'] } })).response.status).toBe(201);

    // Bad input is named.
    const testsUrl = `${platform.gateway}/api/v1/agents/front-desk/tests`;
    const vague = await http<{ errors: { field: string; message: string }[] }>('POST', testsUrl, { token, json: { message: 'Where can I park?', expect: {} } });
    expect(vague.status).toBe(400);
    expect(vague.body.errors).toEqual([{ field: 'expect', message: 'expect must name at least one of contains, skill, handoff, no_answer' }]);
    const badSkill = await http<{ errors: { field: string }[] }>('POST', testsUrl, { token, json: { message: 'Hi', expect: { skill: 'magic' } } });
    expect({ status: badSkill.status, fields: badSkill.body.errors?.map((e) => e.field) }).toEqual({ status: 400, fields: ['expect.skill'] });

    const parking = await owner.POST('/api/v1/agents/{agent_name}/tests', { ...agentPath, body: { message: 'Where can I park my car?', expect: { contains: 'yard' } } });
    const hours = await owner.POST('/api/v1/agents/{agent_name}/tests', { ...agentPath, body: { message: 'When do you open?', expect: { contains: '10:00' } } });
    expect(parking.response.status).toBe(201);
    expect((await owner.GET('/api/v1/agents/{agent_name}/tests', agentPath)).data!.data.map((t) => t.id)).toEqual([parking.data!.id, hours.data!.id]);

    // The change learns parking and forgets the hours: fixed one, broke one.
    expect((await owner.PUT('/api/v1/agents/{agent_name}', { ...agentPath, body: { ...AGENT, faqs: [PARKING] } })).data!.version).toBe(2);
    const run = await pollUntil<TestRun>(
      async () => {
        const got = await owner.GET('/api/v1/agents/{agent_name}/versions/{version}/test-run', { params: { path: { agent_name: 'front-desk', version: '2' } } });
        return got.data?.status === 'completed' ? got.data : undefined;
      },
      { timeoutMs: 60_000, description: 'the test run of version 2' },
    );
    expect(run).toMatchObject({ version: 2, passed: 1, failed: 1, fixed: [parking.data!.id], broken: [hours.data!.id], previous_version: 1 });
    const announced = await pollUntil(() => receiver.received.find((d) => (JSON.parse(d.body) as { event?: string }).event === 'agent.tests_completed'), {
      timeoutMs: 30_000,
      description: 'agent.tests_completed at the webhook',
    });
    expect(JSON.parse(announced.body)).toMatchObject({ event: 'agent.tests_completed', agent: 'front-desk', run: { id: run.id, fixed: run.fixed, broken: run.broken } });

    // With require_tests=pass a change that fails a case is refused, saying which and why; one that passes is saved.
    const refused = await http<{ type: string; failing: { test_id: string; reply: string; failures: string[] }[] }>('PUT', `${platform.gateway}/api/v1/agents/front-desk?require_tests=pass`, {
      token,
      json: { ...AGENT, faqs: [PARKING] },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.type).toBe('https://parley.dev/problems/tests-failed');
    expect(refused.body.failing).toEqual([expect.objectContaining({ test_id: hours.data!.id, failures: ['does not contain "10:00"'] })]);
    expect((await owner.GET('/api/v1/agents/{agent_name}', agentPath)).data!.version).toBe(2);
    const fixedUp = await http<{ version: number }>('PUT', `${platform.gateway}/api/v1/agents/front-desk?require_tests=pass`, { token, json: { ...AGENT, faqs: [PARKING, HOURS] } });
    expect({ status: fixedUp.status, version: fixedUp.body.version }).toEqual({ status: 200, version: 3 });
    const badQuery = await http<{ errors: { field: string }[] }>('PUT', `${platform.gateway}/api/v1/agents/front-desk?require_tests=maybe`, { token, json: AGENT });
    expect({ status: badQuery.status, fields: badQuery.body.errors?.map((e) => e.field) }).toEqual({ status: 400, fields: ['require_tests'] });

    // A version saved while the agent had no tests has no run.
    expect((await http('GET', `${platform.gateway}/api/v1/agents/front-desk/versions/1/test-run`, { token })).status).toBe(404);
  });
});
