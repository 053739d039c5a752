import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Presence } from '../api';
import { member, page, presence, teamMember } from '../test/fixtures';
import { renderApp } from '../test/render-app';
import { json, problem, server } from '../test/server';

const me = member();
const kari = teamMember();

/** The presence routes: `GET` lists `listed`; each `PUT` is recorded and answered by `answer` (else the member's new presence). */
function presenceApi(listed: Presence[], answer?: () => Response) {
  const put: unknown[] = [];
  server.use(
    http.get('/api/v1/team', () => json(page([teamMember({ id: me.id, name: me.name, role: 'owner' }), kari]))),
    http.get('/api/v1/team/presence', () => json({ data: listed })),
    http.put('/api/v1/team/me/presence', async ({ request }) => {
      const body = (await request.json()) as { status: Presence['status'] };
      put.push(body);
      return answer ? answer() : json(presence({ status: body.status, available: body.status === 'online' }));
    }),
  );
  return { put };
}

const availableSwitch = () => screen.getByRole('switch', { name: 'Available' }) as HTMLInputElement;

describe('the Available / Away switch', () => {
  it('shows the member’s own presence (not another member’s), and switching sends it', async () => {
    const { put } = presenceApi([presence({ status: 'away', available: false }), presence({ member_id: kari.id, status: 'online' })]);
    const { user } = renderApp('/team');
    await screen.findByText(`${me.name} (owner)`);

    await waitFor(() => expect(availableSwitch().disabled).toBe(false));
    expect(availableSwitch().checked).toBe(false);
    expect(screen.getByText('Away')).toBeTruthy();

    await user.click(availableSwitch());
    await waitFor(() => expect(availableSwitch().checked).toBe(true));
    expect(put).toEqual([{ status: 'online' }]);
    expect(screen.queryByText('Away')).toBeNull();

    await user.click(availableSwitch());
    await waitFor(() => expect(availableSwitch().checked).toBe(false));
    expect(put).toEqual([{ status: 'online' }, { status: 'away' }]);
    expect(screen.getByText('Away')).toBeTruthy();
  });

  it('is available for a member the API has not seen yet, and stays as it was when the change is refused', async () => {
    const { put } = presenceApi([], () => problem(503, 'The inbox service is not answering. Try again in a moment.'));
    const { user } = renderApp('/team');
    await waitFor(() => expect(availableSwitch().disabled).toBe(false));
    expect(availableSwitch().checked).toBe(true);

    await user.click(availableSwitch());
    expect((await screen.findByRole('alert')).textContent).toBe('Could not change: The inbox service is not answering. Try again in a moment.');
    expect(put).toEqual([{ status: 'away' }]);
    expect(availableSwitch().checked).toBe(true);
  });
});
