import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Contact, ContactChange } from '../../api';
import { contact, page } from '../../test/fixtures';
import { descriptionOf, renderApp } from '../../test/render-app';
import { json, problem, server } from '../../test/server';

const maria = contact();
const li = contact({ id: 'ctc_01JD3S4ZC5Q2X8V6N7M9P0R1T3', name: null, phone: '+14155550199', email: null, tags: [], opted_out: true });

/** The table's body rows, each as the text of its cells. */
function tableRows(): string[][] {
  const table = screen.getByRole('table', { name: 'Contacts, newest first' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent ?? ''));
}

describe('contacts', () => {
  it('lists the contacts the API answers, one row each', async () => {
    server.use(http.get('/api/v1/contacts', () => json(page([maria, li]))));
    renderApp('/contacts');

    await screen.findByRole('table', { name: 'Contacts, newest first' });
    expect(tableRows()).toEqual([
      ['Maria Lopez', '+14155550123', 'maria@example.com', 'vip'],
      // no name: the number stands for the contact; a STOP is shown
      ['+14155550199opted out', '+14155550199', '—', '—'],
    ]);
    expect(screen.getByRole('link', { name: 'Maria Lopez' }).getAttribute('href')).toBe(`/dashboard/contacts/${maria.id}`);
  });

  it('searches through the API and says so when no contact matches', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/v1/contacts', ({ request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(query.toString());
        return json(page(query.get('q') ? [] : [maria]));
      }),
    );
    const { user } = renderApp('/contacts');
    await screen.findByRole('table', { name: 'Contacts, newest first' });

    await user.type(screen.getByRole('searchbox', { name: 'Name, email or number' }), 'nobody');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    expect(await screen.findByText('No contact matches.')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Contacts, newest first' })).toBeNull();
    // the list is read on arrival (and again as the event stream opens), then with the words searched for
    expect(asked.at(-1)).toBe('limit=100&q=nobody');
    expect(asked.slice(0, -1).every((q) => q === 'limit=100')).toBe(true);
  });

  it('edits a contact: the form sends what was typed, then shows the saved contact', async () => {
    let stored: Contact = maria;
    let sent: ContactChange | undefined;
    let csrf: string | null = null;
    server.use(
      http.get('/api/v1/contacts/:id', ({ params }) => (params.id === stored.id ? json(stored) : problem(404, 'No such contact.'))),
      http.patch('/api/v1/contacts/:id', async ({ request }) => {
        sent = (await request.json()) as ContactChange;
        csrf = request.headers.get('x-csrf-token');
        stored = { ...stored, ...sent, updated_at: '2026-03-02T11:00:00.000Z' } as Contact;
        return json(stored);
      }),
      http.get('/api/v1/contacts/:id/activities', () => json(page([]))),
      http.get('/api/v1/deals', () => json(page([]))),
      http.get('/api/v1/companies', () => json(page([]))),
    );
    const { user } = renderApp(`/contacts/${maria.id}`);

    const name = await screen.findByLabelText('Name');
    expect(screen.getByRole('heading', { name: 'Maria Lopez' })).toBeTruthy();
    await user.clear(name);
    await user.type(name, 'María López');
    const tags = screen.getByLabelText('Tags');
    await user.clear(tags);
    await user.type(tags, 'vip, repair; vip');
    await user.click(screen.getByRole('button', { name: 'Add attribute' }));
    await user.type(screen.getByLabelText('Attribute 1 name'), 'visits');
    await user.type(screen.getByLabelText('Attribute 1 value'), '3');
    await user.click(screen.getByRole('button', { name: 'Save contact' }));

    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(sent).toEqual({ name: 'María López', email: 'maria@example.com', tags: ['vip', 'repair'], company_id: null, attributes: { visits: 3 } });
    // a member's change rides on the session cookie, with its CSRF token (double submit)
    expect(csrf).toBe('test-csrf-token');
    // read again after the save: the heading is the saved name
    expect(await screen.findByRole('heading', { name: 'María López' })).toBeTruthy();
  });

  it('shows the field a 400 problem names beside it, and saves nothing', async () => {
    server.use(
      http.get('/api/v1/contacts/:id', () => json(maria)),
      http.patch('/api/v1/contacts/:id', () => problem(400, 'The request is not valid.', [{ field: 'email', message: 'email must be an email' }])),
      http.get('/api/v1/contacts/:id/activities', () => json(page([]))),
      http.get('/api/v1/deals', () => json(page([]))),
      http.get('/api/v1/companies', () => json(page([]))),
    );
    const { user } = renderApp(`/contacts/${maria.id}`);

    const email = await screen.findByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'maria@');
    await user.click(screen.getByRole('button', { name: 'Save contact' }));

    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(email)).toBe('The email address must be an email.');
    expect(screen.queryByText('Saved.')).toBeNull();
  });
});
