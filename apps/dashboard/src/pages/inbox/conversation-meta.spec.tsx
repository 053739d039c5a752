import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { InboxThread } from '../../api';
import { inboxThread, member, page, team, teamMember } from '../../test/fixtures';
import { descriptionOf, renderApp } from '../../test/render-app';
import { json, server } from '../../test/server';

const support = team();
const sales = team({ id: 'tea_01JD3S4ZC5Q2X8V6N7M9P0R1S2', name: 'Sales' });

/**
 * One conversation kept here, as the inbox reads it (the list, the thread) and changes it (each PATCH body recorded,
 * answered with the conversation as it now is); the team, the teams, and no contact yet.
 */
function conversationApi(initial: InboxThread) {
  let stored = initial;
  const patched: unknown[] = [];
  const summary = () => {
    const { messages: _messages, notes: _notes, ...conversation } = stored;
    return conversation;
  };
  server.use(
    http.get('/api/v1/team', () => json(page([teamMember({ id: member().id, name: 'Ada Owner', role: 'owner' })]))),
    http.get('/api/v1/teams', () => json(page([support, sales]))),
    http.get('/api/v1/contacts', () => json(page([]))),
    http.get('/api/v1/conversations', () => json(page([summary()]))),
    http.get('/api/v1/conversations/:id', () => json(stored)),
    http.patch('/api/v1/conversations/:id', async ({ request }) => {
      const body = (await request.json()) as Partial<InboxThread>;
      patched.push(body);
      stored = { ...stored, ...body, labels: body.labels ? [...body.labels].sort() : stored.labels };
      return json(summary());
    }),
  );
  return { patched };
}

const thread = () => screen.getByRole('article', { name: 'Conversation with Maria Lopez' });
const chips = () =>
  within(thread())
    .queryAllByRole('listitem')
    .filter((li) => li.classList.contains('label-chip'))
    .map((li) => li.firstChild?.textContent);

describe('a conversation’s labels, team and SLA in the inbox', () => {
  it('adds a label typed and Enter, and removes one with its ×, each time sending the whole list', async () => {
    const { patched } = conversationApi(inboxThread({ labels: ['vip'] }));
    const { user } = renderApp(`/inbox/${inboxThread().id}`);
    await screen.findByRole('article', { name: 'Conversation with Maria Lopez' });
    expect(chips()).toEqual(['vip']);
    // the list shows them too
    expect(screen.getByTestId('inbox-labels').textContent).toBe('Labels: vip');

    const input = within(thread()).getByRole('textbox', { name: 'Add a label' });
    await user.type(input, 'Refund Request{Enter}');
    await waitFor(() => expect(chips()).toEqual(['refund-request', 'vip']));
    expect(patched).toEqual([{ labels: ['vip', 'refund-request'] }]);
    expect((input as HTMLInputElement).value).toBe('');

    await user.click(within(thread()).getByRole('button', { name: 'Remove label vip' }));
    await waitFor(() => expect(chips()).toEqual(['refund-request']));
    expect(patched).toEqual([{ labels: ['vip', 'refund-request'] }, { labels: ['refund-request'] }]);
  }, 15_000);

  it('says what a label may be instead of sending one the API would refuse', async () => {
    const { patched } = conversationApi(inboxThread());
    const { user } = renderApp(`/inbox/${inboxThread().id}`);
    await screen.findByRole('article', { name: 'Conversation with Maria Lopez' });

    const input = within(thread()).getByRole('textbox', { name: 'Add a label' });
    await user.type(input, '#urgent!{Enter}');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(input)).toBe('A label is 1 to 40 lower-case letters, digits, - or _, starting with a letter or digit.');
    expect(patched).toEqual([]);
    expect(chips()).toEqual([]);
  });

  it('shows the team and the first reply’s due time, red once breached, and moves the conversation to another team', async () => {
    const due = new Date(Date.now() + 12 * 60_000 + 20_000).toISOString();
    const { patched } = conversationApi(inboxThread({ team_id: support.id, sla: { first_response_due_at: due, resolution_due_at: null, breached: false } }));
    const { user } = renderApp(`/inbox/${inboxThread().id}`);
    await screen.findByRole('article', { name: 'Conversation with Maria Lopez' });

    await waitFor(() => expect(within(thread()).getByTestId('thread-team-name').textContent).toBe('Team: Support'));
    expect(within(thread()).getByTestId('sla-status').textContent).toBe('First reply due in 12 min');
    const teamChoice = within(thread()).getByRole('combobox', { name: 'Team' }) as HTMLSelectElement;
    expect(teamChoice.selectedOptions[0].textContent).toBe('Support');

    await user.selectOptions(teamChoice, 'Sales');
    await waitFor(() => expect(within(thread()).getByTestId('thread-team-name').textContent).toBe('Team: Sales'));
    expect(patched).toEqual([{ team_id: sales.id }]);
  });

  it('says “SLA breached” once a target was missed', async () => {
    conversationApi(inboxThread({ team_id: support.id, sla: { first_response_due_at: new Date(Date.now() - 60_000).toISOString(), resolution_due_at: null, breached: true } }));
    renderApp(`/inbox/${inboxThread().id}`);
    await screen.findByRole('article', { name: 'Conversation with Maria Lopez' });

    const sla = within(thread()).getByTestId('sla-status');
    expect(sla.textContent).toBe('SLA breached');
    expect(sla.className).toContain('badge-error');
    // and in the list
    expect(within(screen.getByTestId('inbox-item')).getByText('SLA breached')).toBeTruthy();
  });
});
