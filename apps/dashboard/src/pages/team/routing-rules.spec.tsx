import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { RoutingRule } from '../../api';
import { team } from '../../test/fixtures';
import { descriptionOf, renderComponent } from '../../test/render-app';
import { json, problem, server } from '../../test/server';
import { RoutingRules } from './routing-rules';

const support = team();
const sales = team({ id: 'tea_01JD3S4ZC5Q2X8V6N7M9P0R1S2', name: 'Sales' });
const TEAMS = [support, sales];

/** The rules route over a list kept here: `GET` reads it, `POST` records the body and answers `answer`, else keeps it. */
function rulesApi(initial: RoutingRule[], answer?: () => Response) {
  let stored = [...initial];
  const posted: unknown[] = [];
  server.use(
    http.get('/api/v1/routing-rules', () => json({ data: stored })),
    http.post('/api/v1/routing-rules', async ({ request }) => {
      const body = (await request.json()) as RoutingRule[];
      posted.push(body);
      if (answer) return answer();
      stored = body;
      return json({ data: stored });
    }),
  );
  return { posted };
}

const rules = () => screen.getAllByTestId('routing-rule');

describe('routing rules', () => {
  it('shows the stored rules in words, and saves the whole list in the order set, a new rule included', async () => {
    const { posted } = rulesApi([
      { match: { channel: 'sms' }, team_id: sales.id },
      { match: { keyword: 'refund' }, team_id: support.id },
    ]);
    const { user } = renderComponent(<RoutingRules teams={TEAMS} />);
    await waitFor(() => expect(rules()).toHaveLength(2));
    expect(screen.getByText(/Conversations no rule matches go to Support, your default team/)).toBeTruthy();

    const first = within(rules()[0]);
    expect((first.getByRole('combobox', { name: 'Rule 1: what to look at' }) as HTMLSelectElement).value).toBe('channel');
    expect((first.getByRole('combobox', { name: 'Rule 1: the channel' }) as HTMLSelectElement).selectedOptions[0].textContent).toBe('SMS');
    expect((first.getByRole('combobox', { name: 'Rule 1: send to team' }) as HTMLSelectElement).selectedOptions[0].textContent).toBe('Sales');
    expect((within(rules()[1]).getByRole('textbox', { name: 'Rule 2: the customer’s message' }) as HTMLInputElement).value).toBe('refund');

    // the refund rule first, then a new one: contacts tagged vip go to Sales
    await user.click(screen.getByRole('button', { name: 'Move rule 2 up' }));
    expect((within(rules()[0]).getByRole('textbox', { name: 'Rule 1: the customer’s message' }) as HTMLInputElement).value).toBe('refund');
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    const added = within(rules()[2]);
    await user.selectOptions(added.getByRole('combobox', { name: 'Rule 3: what to look at' }), 'contact_tag');
    await user.type(added.getByRole('textbox', { name: 'Rule 3: the contact’s tags' }), ' vip ');
    await user.selectOptions(added.getByRole('combobox', { name: 'Rule 3: send to team' }), 'Sales');
    await user.click(screen.getByRole('button', { name: 'Save rules' }));

    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(posted).toEqual([
      [
        { match: { keyword: 'refund' }, team_id: support.id },
        { match: { channel: 'sms' }, team_id: sales.id },
        { match: { contact_tag: 'vip' }, team_id: sales.id },
      ],
    ]);
  });

  it('removes a rule, and shows a refusal in the row it names, beside its field', async () => {
    const { posted } = rulesApi(
      [
        { match: { channel: 'whatsapp' }, team_id: support.id },
        { match: { skill: 'human' }, team_id: sales.id },
      ],
      () => problem(400, 'The request is not valid.', [{ field: '[1].match.keyword', message: 'match.keyword must be a string of 1 to 100 characters' }]),
    );
    const { user } = renderComponent(<RoutingRules teams={TEAMS} />);
    await waitFor(() => expect(rules()).toHaveLength(2));
    expect((within(rules()[1]).getByRole('combobox', { name: 'Rule 2: the AI skill handing over' }) as HTMLSelectElement).selectedOptions[0].textContent).toBe(
      'the customer asked for a person',
    );

    await user.click(screen.getByRole('button', { name: 'Remove rule 2' }));
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    await user.click(screen.getByRole('button', { name: 'Save rules' }));

    const keyword = await within(rules()[1]).findByRole('textbox', { name: 'Rule 2: the customer’s message' });
    await waitFor(() => expect(keyword.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(keyword)).toBe('The keyword must be a string of 1 to 100 characters.');
    expect(within(rules()[1]).getByText('The keyword must be a string of 1 to 100 characters.')).toBeTruthy();
    expect(within(rules()[0]).queryByText(/must be/)).toBeNull();
    expect(screen.queryByText('Saved.')).toBeNull();
    // an empty keyword is sent as it is, for the API to refuse (left out, it would match every conversation)
    expect(posted).toEqual([
      [
        { match: { channel: 'whatsapp' }, team_id: support.id },
        { match: { keyword: '' }, team_id: support.id },
      ],
    ]);

    // typing in the row clears its error
    await user.type(keyword, 'invoice');
    expect(keyword.getAttribute('aria-invalid')).toBeNull();
  });
});
