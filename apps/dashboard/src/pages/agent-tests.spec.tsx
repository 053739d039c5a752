import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { AgentBody, AgentTestCase, AgentTestRun } from '../api';
import { agent, agentTest, agentTestRun, page } from '../test/fixtures';
import { descriptionOf, renderApp, renderComponent } from '../test/render-app';
import { json, problem, server } from '../test/server';
import { AgentEditor } from './agent-editor';
import { AgentTests } from './agent-tests';

const frontDesk = agent();
const TESTS = '/api/v1/agents/front-desk/tests';
const RUN = '/api/v1/agents/front-desk/versions/3/test-run';

const cake = agentTest();
const unknown = agentTest({ id: 'tst_2', message: 'Do you sell car parts?', expect: { no_answer: true } });
const complaint = agentTest({ id: 'tst_3', message: 'I want to speak to the manager', expect: { handoff: true } });
const booking = agentTest({ id: 'tst_4', message: 'Can I come in at 10 tomorrow?', expect: { skill: 'appointment_booking' } });

/** The tests route over a set kept here: `GET` lists it, `POST` adds (recording each body), `DELETE` removes. */
function testsApi(initial: AgentTestCase[], run: () => Response = () => problem(404, 'No test run of version 3 of agent "front-desk".')) {
  const stored = [...initial];
  const posted: unknown[] = [];
  const deleted: string[] = [];
  server.use(
    http.get(TESTS, () => json(page(stored))),
    http.post(TESTS, async ({ request }) => {
      const body = (await request.json()) as Pick<AgentTestCase, 'message' | 'expect'>;
      posted.push(body);
      const test = agentTest({ id: `tst_new${stored.length}`, ...body });
      stored.push(test);
      return json(test, 201);
    }),
    http.delete(`${TESTS}/:id`, ({ params }) => {
      deleted.push(String(params.id));
      stored.splice(
        stored.findIndex((t) => t.id === params.id),
        1,
      );
      return new Response(null, { status: 204 });
    }),
    http.get(RUN, run),
  );
  return { posted, deleted };
}

const caseRows = () => within(screen.getByRole('list', { name: 'Test cases' })).getAllByRole('listitem').map((li) => li.textContent);

describe('agent tests', () => {
  it('lists each case with what its answer must be in words; a version saved before there were tests has no run', async () => {
    const { deleted } = testsApi([cake, unknown, complaint, booking]);
    const { user } = renderComponent(<AgentTests agent={frontDesk} />);

    await screen.findByRole('list', { name: 'Test cases' });
    expect(caseRows()).toEqual([
      '“How much is a birthday cake?” → answer contains “$15”Delete',
      '“Do you sell car parts?” → says it doesn’t knowDelete',
      '“I want to speak to the manager” → hands off to a personDelete',
      '“Can I come in at 10 tomorrow?” → answered by bookingDelete',
    ]);
    expect(screen.getByText('Questions your customers ask and what the answer must be. Every change to the agent runs them.')).toBeTruthy();
    // the 404 of the run is a state of the agent, not an error
    expect(await screen.findByText('Saved before this agent had tests: no run for this version.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete test “Do you sell car parts?”' }));
    await waitFor(() => expect(caseRows()).toHaveLength(3));
    expect(deleted).toEqual(['tst_2']);
    expect(screen.getByRole('status').textContent).toBe('Deleted the test “Do you sell car parts?”.');
  });

  it('adds a test with the expectation chosen in words, and shows a field the API refused beside that field', async () => {
    const { posted } = testsApi([cake]);
    server.use(
      http.post(TESTS, async ({ request }) => {
        posted.push(await request.json());
        return problem(400, 'The request is not valid.', [{ field: 'expect.contains', message: 'expect.contains must be a string of 1 to 500 characters' }]);
      }),
    );
    const { user } = renderComponent(<AgentTests agent={frontDesk} />);
    await screen.findByRole('list', { name: 'Test cases' });
    const form = screen.getByRole('form', { name: 'Add a test' });

    await user.type(within(form).getByLabelText('The customer’s message'), 'Do you deliver?');
    const contains = within(form).getByLabelText(/^Text the answer contains/);
    await user.type(contains, '   ');
    await user.click(within(form).getByRole('button', { name: 'Add test' }));

    await waitFor(() => expect(contains.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(contains)).toBe('The expected text must be a string of 1 to 500 characters.');
    expect(within(form).getByLabelText('The customer’s message').getAttribute('aria-invalid')).toBeNull();
    expect(posted).toEqual([{ message: 'Do you deliver?', expect: { contains: '' } }]);

    // the API takes the next one: a question the agent must hand to a person
    server.resetHandlers();
    const second = testsApi([cake]);
    await user.selectOptions(within(form).getByLabelText('What the answer must do'), 'It hands off to a person');
    expect(within(form).queryByLabelText(/^Text the answer contains/)).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Add test' }));

    await waitFor(() => expect(caseRows()).toEqual(['“How much is a birthday cake?” → answer contains “$15”Delete', '“Do you deliver?” → hands off to a personDelete']));
    expect(second.posted).toEqual([{ message: 'Do you deliver?', expect: { handoff: true } }]);
    expect(screen.getByRole('status').textContent).toBe('Added the test “Do you deliver?”. It runs the next time you save front-desk.');
    expect((within(form).getByLabelText('The customer’s message') as HTMLInputElement).value).toBe('');
  });

  it('follows the run of the current version until it completes, then says what the change fixed and broke', async () => {
    const completed: AgentTestRun = agentTestRun({
      passed: 2,
      failed: 2,
      cases: [
        { test_id: cake.id, message: cake.message, ok: false, reply: 'A birthday cake is $18 now.', failures: ['does not contain "$15"'] },
        { test_id: unknown.id, message: unknown.message, ok: true, reply: 'Sorry, I don’t know.', failures: [] },
        { test_id: complaint.id, message: complaint.message, ok: true, reply: 'I will get someone for you.', failures: [] },
        { test_id: booking.id, message: booking.message, ok: false, reply: 'We open at 9.', failures: ['answered by faq_responder (expected: appointment_booking)'] },
      ],
      fixed: [unknown.id],
      broken: [cake.id],
    });
    let reads = 0;
    testsApi([cake, unknown, complaint, booking], () => {
      reads += 1;
      return json(reads === 1 ? agentTestRun({ status: 'queued', completed_at: null }) : reads === 2 ? agentTestRun({ status: 'running', completed_at: null }) : completed);
    });
    server.use(
      http.get('/api/v1/agents', () => json(page([frontDesk]))),
      http.get('/api/v1/agents/front-desk/documents', () => json(page([]))),
      http.get('/api/v1/agents/front-desk/gaps', () => json(page([]))),
      http.get('/api/v1/agents/front-desk/analytics', () => json({ data: [], sources: { most_used: [], never_used: [] } })),
      http.get('/api/v1/agents/front-desk/versions', () => json(page([]))),
    );
    const { user } = renderApp('/agents');
    await user.click(await screen.findByRole('button', { name: /front-desk/ }));
    const section = screen.getByRole('region', { name: 'Tests' });

    expect(await within(section).findByText('Running your tests…')).toBeTruthy();
    // read again about every second until completed
    const summary = await within(section).findByTestId('test-run-summary', {}, { timeout: 4000 });
    expect(summary.textContent).toBe('2 passed, 2 failed. This change fixed 1 and broke 1 (compared with version 2).');
    expect(reads).toBe(3);

    const failing = within(section).getAllByRole('listitem').filter((li) => li.closest('ul')?.getAttribute('aria-label') === 'Failing tests');
    expect(failing.map((li) => li.textContent)).toEqual([
      '“How much is a birthday cake?”broken by this changeIt answered: A birthday cake is $18 now.Did not hold: does not contain "$15"',
      '“Can I come in at 10 tomorrow?”It answered: We open at 9.Did not hold: answered by your FAQs (expected: booking)',
    ]);
    // completed: no more reads
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(reads).toBe(3);
  }, 10_000);

  it('saves only if all tests pass when asked to, and shows the failing cases when they do not', async () => {
    testsApi([cake]);
    const puts: { query: string; body: AgentBody }[] = [];
    server.use(
      http.put('/api/v1/agents/front-desk', async ({ request }) => {
        puts.push({ query: new URL(request.url).search, body: (await request.json()) as AgentBody });
        return json(
          {
            type: 'https://parley.dev/problems/tests-failed',
            title: 'Tests failed',
            status: 409,
            detail: '1 of 1 test cases of agent "front-desk" fail with this change; it was not saved.',
            request_id: 'req_1',
            failing: [{ test_id: cake.id, message: cake.message, ok: false, reply: 'A birthday cake is $18 now.', failures: ['does not contain "$15"'] }],
          },
          409,
        );
      }),
    );
    const onSaved = vi.fn();
    const { user } = renderComponent(<AgentEditor agent={frontDesk} onSaved={onSaved} />);

    const only = await screen.findByRole('checkbox', { name: /^Only save if all tests pass/ });
    expect((only as HTMLInputElement).checked).toBe(false);
    await user.click(only);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const refusal = await screen.findByRole('alert');
    expect(within(refusal).getByText(/^Not saved: 1 test fails with this change\./)).toBeTruthy();
    const failing = within(within(refusal).getByRole('list', { name: 'Tests that fail with this change' })).getByRole('listitem');
    expect(failing.textContent).toBe('“How much is a birthday cake?”It answered: A birthday cake is $18 now.Did not hold: does not contain "$15"');
    expect(refusal.textContent).not.toContain('HTTP 409');
    expect(puts).toHaveLength(1);
    expect(puts[0].query).toBe('?require_tests=pass');
    expect(puts[0].body.name).toBe('front-desk');
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('offers the choice only when the agent has tests, and saves plainly without it', async () => {
    testsApi([]);
    const queries: string[] = [];
    server.use(
      http.put('/api/v1/agents/front-desk', ({ request }) => {
        queries.push(new URL(request.url).search);
        return json({ ...frontDesk, version: 4 });
      }),
    );
    const onSaved = vi.fn();
    const { user } = renderComponent(
      <>
        <AgentEditor agent={frontDesk} onSaved={onSaved} />
        <AgentTests agent={frontDesk} />
      </>,
    );

    // the section and the editor read the same list: once it is shown empty, the editor knows there are no tests
    await screen.findByText(/^No tests yet/);
    expect(screen.queryByRole('checkbox', { name: /Only save if all tests pass/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ version: 4 })));
    expect(queries).toEqual(['']);
  });
});
