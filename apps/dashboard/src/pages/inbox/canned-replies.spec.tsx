import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CannedReply } from '../../api';
import { cannedReply, page } from '../../test/fixtures';
import { descriptionOf, renderComponent } from '../../test/render-app';
import { json, problem, server } from '../../test/server';
import { CannedReplyPicker } from './canned-replies';

/** The picker as the reply box holds it: its search is the box's state; a pick hands the filled-in text back. */
function Picker({ onPick }: { onPick(text: string): void }) {
  const [query, setQuery] = useState('');
  return <CannedReplyPicker query={query} onQuery={setQuery} values={{ contactName: 'Maria', agentName: 'Ada' }} onPick={onPick} onClose={() => undefined} searchFirst />;
}

/** The canned replies route over a list kept here: `GET` searches it as the API does (shortcut or text), `POST` adds. */
function cannedRepliesApi(initial: CannedReply[]) {
  const stored = [...initial];
  const created: unknown[] = [];
  server.use(
    http.get('/api/v1/canned-replies', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q')?.toLowerCase();
      return json(page(stored.filter((r) => !q || `${r.shortcut} ${r.text}`.toLowerCase().includes(q))));
    }),
    http.post('/api/v1/canned-replies', async ({ request }) => {
      const body = (await request.json()) as { shortcut: string; text: string };
      created.push(body);
      if (stored.some((r) => r.shortcut === body.shortcut)) return problem(409, `A canned reply /${body.shortcut} exists already.`);
      const reply = cannedReply({ id: `cnr_${stored.length + 1}`, ...body });
      stored.push(reply);
      return json(reply, 201);
    }),
  );
  return { created };
}

const choices = () => screen.getAllByTestId('canned-reply').map((b) => b.textContent);

describe('canned replies', () => {
  it('lists the team’s replies from the API with their variables filled in, and hands the chosen one back', async () => {
    cannedRepliesApi([cannedReply(), cannedReply({ id: 'cnr_2', shortcut: 'thanks', text: 'Thank you, {{contact.name}}! {{agent.name}}' })]);
    const onPick = vi.fn();
    const { user } = renderComponent(<Picker onPick={onPick} />);

    await screen.findAllByTestId('canned-reply');
    expect(choices()).toEqual(['/opening-hours Hi Maria, we open at 9.', '/thanks Thank you, Maria! Ada']);

    await user.click(screen.getByRole('button', { name: /thanks/ }));
    expect(onPick).toHaveBeenCalledWith('Thank you, Maria! Ada');
  });

  it('says so when there is none yet, and when none matches the search', async () => {
    cannedRepliesApi([]);
    const { user } = renderComponent(<Picker onPick={() => undefined} />);

    expect(await screen.findByText('No canned reply yet: add the first below.')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Find a canned reply' }), 'refund');
    expect(await screen.findByText('No canned reply matches “refund”.')).toBeTruthy();
  });

  it('adds a reply: the route gets the shortcut and text typed, and the list shows it', async () => {
    const { created } = cannedRepliesApi([cannedReply()]);
    const { user } = renderComponent(<Picker onPick={() => undefined} />);
    await screen.findAllByTestId('canned-reply');

    await user.click(screen.getByText('Add a canned reply'));
    const form = screen.getByRole('group', { name: 'New canned reply' });
    await user.type(within(form).getByLabelText('Shortcut'), ' returns ');
    await user.type(within(form).getByLabelText('Text'), 'Returns are free within 30 days.');
    await user.click(within(form).getByRole('button', { name: 'Save canned reply' }));

    await waitFor(() => expect(choices()).toEqual(['/opening-hours Hi Maria, we open at 9.', '/returns Returns are free within 30 days.']));
    expect(created).toEqual([{ shortcut: 'returns', text: 'Returns are free within 30 days.' }]);
    // emptied for the next one
    expect((within(form).getByLabelText('Shortcut') as HTMLInputElement).value).toBe('');
  });

  it('says why the API refused a new reply, keeping what was typed', async () => {
    const { created } = cannedRepliesApi([cannedReply()]);
    server.use(
      http.post('/api/v1/canned-replies', async ({ request }) => {
        created.push(await request.json());
        return problem(400, 'The request is not valid.', [{ field: 'text', message: 'text may use only {{contact.name}} and {{agent.name}}' }]);
      }),
    );
    const { user } = renderComponent(<Picker onPick={() => undefined} />);
    await screen.findAllByTestId('canned-reply');

    await user.click(screen.getByText('Add a canned reply'));
    const form = screen.getByRole('group', { name: 'New canned reply' });
    await user.type(within(form).getByLabelText('Shortcut'), 'order');
    const text = within(form).getByLabelText('Text');
    // user-event reads `{` as a key name: `{{` types one brace
    await user.type(text, 'Your order {{{{order.id}} is on its way.');
    await user.click(within(form).getByRole('button', { name: 'Save canned reply' }));

    await waitFor(() => expect(text.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(text)).toContain('The text may use only {{contact.name}} and {{agent.name}}.');
    expect((text as HTMLTextAreaElement).value).toBe('Your order {{order.id}} is on its way.');
    expect(created).toEqual([{ shortcut: 'order', text: 'Your order {{order.id}} is on its way.' }]);
    expect(choices()).toEqual(['/opening-hours Hi Maria, we open at 9.']);
  });
});
