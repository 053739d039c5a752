import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AgentDocument } from '../api';
import { agentDocument, page } from '../test/fixtures';
import { descriptionOf, renderComponent } from '../test/render-app';
import { json, problem, server } from '../test/server';
import { AgentKnowledge } from './agent-knowledge';
import { refreshFailureText } from './document-freshness';

const DOCUMENTS = '/api/v1/agents/front-desk/documents';
const HOUR = 3_600_000;
const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

/** The documents route over a list kept here: `GET` lists it, `POST` records the body and adds the document (ready). */
function documentsApi(initial: AgentDocument[]) {
  const stored = [...initial];
  const posted: unknown[] = [];
  server.use(
    http.get(DOCUMENTS, () => json(page(stored))),
    http.post(DOCUMENTS, async ({ request }) => {
      const body = (await request.json()) as { title?: string; url?: string; refresh?: AgentDocument['refresh'] };
      posted.push(body);
      const refresh = body.refresh ?? 'off';
      const added = agentDocument({
        id: `doc_new${stored.length}`,
        title: body.title ?? body.url ?? '',
        source: body.url ? 'url' : 'text',
        url: body.url ?? null,
        refresh,
        next_refresh_at: refresh === 'daily' ? hoursFromNow(24) : refresh === 'weekly' ? hoursFromNow(7 * 24) : null,
      });
      stored.unshift(added);
      return json({ ...added, status: 'processing', chunks: null }, 202);
    }),
  );
  return { posted };
}

const rows = () => within(screen.getByRole('list', { name: 'Documents' })).getAllByRole('listitem');
const rowOf = (title: string) => rows().find((li) => within(li).queryByText(title)) as HTMLElement;

describe('agent knowledge', () => {
  it('adds a web page checked every day: the choice is sent as `refresh` and the list says when it is checked', async () => {
    const { posted } = documentsApi([]);
    const { user } = renderComponent(<AgentKnowledge agent="front-desk" />);
    await screen.findByText('No documents yet.');
    const form = screen.getByRole('form', { name: 'Add a document' });

    // only a web page can be kept up to date
    expect(within(form).queryByLabelText('Keep it up to date')).toBeNull();
    await user.click(within(form).getByLabelText('A web page'));
    const keep = within(form).getByLabelText('Keep it up to date') as HTMLSelectElement;
    expect(Array.from(keep.options).map((o) => o.textContent)).toEqual(['No, fetch it once', 'Check every day', 'Check every week']);
    expect(keep.value).toBe('weekly');

    await user.type(within(form).getByLabelText('Address'), 'https://crumbs.example/prices');
    await user.selectOptions(keep, 'Check every day');
    await user.click(within(form).getByRole('button', { name: 'Add document' }));

    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(posted).toEqual([{ url: 'https://crumbs.example/prices', refresh: 'daily' }]);
    expect(within(rows()[0]).getByTestId('document-freshness').textContent).toBe('Checked daily · first check in 24 h');
    // the form is ready for the next page, at its default
    expect((within(form).getByLabelText('Address') as HTMLInputElement).value).toBe('');
    expect(keep.value).toBe('weekly');
  });

  it('adds pasted text without `refresh`, and a page fetched once says so in `refresh`', async () => {
    const { posted } = documentsApi([]);
    const { user } = renderComponent(<AgentKnowledge agent="front-desk" />);
    await screen.findByText('No documents yet.');
    const form = screen.getByRole('form', { name: 'Add a document' });

    await user.type(within(form).getByLabelText(/^Title/), 'Opening hours');
    await user.type(within(form).getByLabelText(/^Text/), 'We open at 9.');
    await user.click(within(form).getByRole('button', { name: 'Add document' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ title: 'Opening hours', text: 'We open at 9.' });

    await user.click(within(form).getByLabelText('A web page'));
    await user.type(within(form).getByLabelText(/^Title/), 'Menu');
    await user.type(within(form).getByLabelText('Address'), 'https://crumbs.example/menu');
    await user.selectOptions(within(form).getByLabelText('Keep it up to date'), 'No, fetch it once');
    expect(within(form).getByText(/later changes to the page are not picked up/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Add document' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toEqual({ title: 'Menu', url: 'https://crumbs.example/menu', refresh: 'off' });
    // fetched once: nothing about checks
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(rowOf('Menu')).queryByTestId('document-freshness')).toBeNull();
  });

  it('shows a refused schedule beside its field', async () => {
    server.use(
      http.get(DOCUMENTS, () => json(page([]))),
      http.post(DOCUMENTS, () => problem(400, 'The request is not valid.', [{ field: 'refresh', message: 'refresh must be one of the following values: off, daily, weekly' }])),
    );
    const { user } = renderComponent(<AgentKnowledge agent="front-desk" />);
    await screen.findByText('No documents yet.');
    const form = screen.getByRole('form', { name: 'Add a document' });
    await user.click(within(form).getByLabelText('A web page'));
    await user.type(within(form).getByLabelText('Address'), 'https://crumbs.example/prices');
    await user.click(within(form).getByRole('button', { name: 'Add document' }));

    const keep = within(form).getByLabelText('Keep it up to date');
    await waitFor(() => expect(keep.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(keep)).toBe('How often the page is checked must be one of the following values: off, daily, weekly.');
  });

  it('says for each scheduled page when it was last checked, what came of it and when it is checked next', async () => {
    documentsApi([
      agentDocument({
        id: 'doc_1',
        title: 'Prices',
        refresh: 'daily',
        last_refresh: { at: hoursFromNow(-3), status: 'unchanged' },
        next_refresh_at: hoursFromNow(20),
      }),
      agentDocument({
        id: 'doc_2',
        title: 'Menu',
        url: 'https://crumbs.example/menu',
        refresh: 'weekly',
        last_refresh: { at: hoursFromNow(-50), status: 'updated' },
        next_refresh_at: hoursFromNow(118),
      }),
      agentDocument({
        id: 'doc_3',
        title: 'Cakes',
        url: 'https://crumbs.example/cakes',
        refresh: 'daily',
        last_refresh: { at: hoursFromNow(-3), status: 'failed', error: 'the URL answered 404' },
        next_refresh_at: hoursFromNow(1),
      }),
      agentDocument({ id: 'doc_4', title: 'About us', url: 'https://crumbs.example/about' }),
      agentDocument({ id: 'doc_5', title: 'Story', source: 'text', url: null }),
      agentDocument({ id: 'doc_6', title: 'Delivery', url: 'https://crumbs.example/delivery', status: 'failed', chunks: null, error: 'the URL answered 500', refresh: 'weekly' }),
    ]);
    renderComponent(<AgentKnowledge agent="front-desk" />);
    await screen.findByRole('list', { name: 'Documents' });

    const freshness = (title: string) => within(rowOf(title)).queryByTestId('document-freshness')?.textContent;
    expect(freshness('Prices')).toBe('Checked daily · last checked 3 h ago: no change · next check in 20 h');
    expect(freshness('Menu')).toBe('Checked weekly · last checked 2 days ago: updated · next check in 5 days');
    expect(freshness('Cakes')).toBe('Checked daily · last checked 3 h ago: failed · next check in 1 h');
    // a warning (notice-warning, ⚠), the reason in words
    const warning = within(rowOf('Cakes')).getByText(/The last check failed/);
    expect(warning.className).toContain('notice-warning');
    expect(warning.textContent).toBe(
      '⚠ The last check failed: the page is not there any more (the website answered 404). We keep the last good version, so the agent still answers from it.',
    );
    expect(within(rowOf('Prices')).queryByText(/last check failed/)).toBeNull();
    // no schedule, or not (yet) read: nothing about checks
    for (const title of ['About us', 'Story', 'Delivery']) expect(freshness(title)).toBeUndefined();
  });

  it('says why a check failed in words, and gives a reason it does not know as the API wrote it', () => {
    expect(refreshFailureText('the URL answered 301 (a redirect); give the address it redirects to')).toBe('the page now sends visitors to another address; add that address as a new document');
    expect(refreshFailureText('the URL could not be fetched (ENOTFOUND)')).toBe('the website’s address could not be found');
    expect(refreshFailureText('the URL answered 503')).toBe('the website had a problem of its own (it answered 503)');
    expect(refreshFailureText('the URL did not answer within 15 s')).toBe('the website did not answer within 15 seconds');
    expect(refreshFailureText('the page has no text any more; the last good version is kept')).toBe('the page has no text any more');
    expect(refreshFailureText('the page could not be read (socket hang up)')).toBe('the page could not be read (socket hang up)');
  });
});
