import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { InboxThread } from '../../api';
import { inboxThread, member, page, team, teamMember } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { json, server } from '../../test/server';

const KARI = teamMember({ id: 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9K', name: 'Kari Nordmann', role: 'agent' });

/** One conversation; each note posted is recorded and kept as the API keeps it (mentions listed). */
function notesApi(initial: InboxThread) {
  let stored = initial;
  const posted: string[] = [];
  const lists: URL[] = [];
  server.use(
    http.get('/api/v1/team', () => json(page([teamMember({ id: member().id, name: 'Ada Owner', role: 'owner' }), KARI]))),
    http.get('/api/v1/teams', () => json(page([team()]))),
    http.get('/api/v1/contacts', () => json(page([]))),
    http.get('/api/v1/conversations', ({ request }) => {
      lists.push(new URL(request.url));
      const { messages: _m, notes: _n, ...summary } = stored;
      return json(page([summary]));
    }),
    http.get('/api/v1/conversations/:id', () => json(stored)),
    http.post('/api/v1/conversations/:id/notes', async ({ request }) => {
      const { text } = (await request.json()) as { text: string };
      posted.push(text);
      const mentions = [...text.matchAll(/@(usr_[0-9A-Z]{26})/g)].map((m) => m[1]);
      const note = { id: 'nte_01JD3S4ZC5Q2X8V6N7M9P0R1T2', conversation_id: stored.id, text, mentions, author: { type: 'member' as const, id: member().id }, at: new Date().toISOString() };
      stored = { ...stored, notes: [...stored.notes, note] };
      return json(note, 201);
    }),
  );
  return { posted, lists };
}

describe('mentions in internal notes', () => {
  it('sends "@Kari Nordmann" as her member id and shows the note with her name', async () => {
    const { posted } = notesApi(inboxThread());
    const { user } = renderApp(`/inbox/${inboxThread().id}`);
    const thread = await screen.findByRole('article', { name: 'Conversation with Maria Lopez' });
    await user.click(within(thread).getByRole('radio', { name: 'Internal note' }));
    const box = within(thread).getByRole('textbox', { name: /Note for your team/ });
    expect(box.getAttribute('aria-describedby')).toBe('composer-mention-hint');
    await user.type(box, '@kari nordmann can you call her back?');
    await user.click(within(thread).getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(posted).toEqual([`@${KARI.id} can you call her back?`]));
    await waitFor(() => expect(within(thread).getAllByTestId('thread-note').map((n) => n.textContent)).toEqual([expect.stringContaining('@Kari Nordmann can you call her back?')]));
  });

  it('filters the list to conversations mentioning me', async () => {
    const { lists } = notesApi(inboxThread());
    const { user } = renderApp('/inbox');
    await user.click(await screen.findByRole('checkbox', { name: 'Mentioning me' }));
    await waitFor(() => expect(lists.at(-1)?.searchParams.get('mentioned')).toBe('me'));
  });
});
