import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Team } from '../../api';
import { member, page, team, teamMember } from '../../test/fixtures';
import { descriptionOf, renderApp } from '../../test/render-app';
import { json, problem, server } from '../../test/server';

const owner = teamMember({ id: member().id, name: 'Ada Owner', role: 'owner' });
const kari = teamMember();
const WEEKDAYS_9_TO_5 = team().business_hours;

/** The teams routes over a list kept here (each body recorded); `create` answers each POST in turn, else 201. */
function teamsApi(initial: Team[], create: (() => Response)[] = []) {
  const stored = [...initial];
  const posted: unknown[] = [];
  const patched: unknown[] = [];
  const deleted: string[] = [];
  server.use(
    http.get('/api/v1/team', () => json(page([owner, kari]))),
    http.get('/api/v1/routing-rules', () => json({ data: [] })),
    http.get('/api/v1/teams', () => json(page(stored))),
    http.post('/api/v1/teams', async ({ request }) => {
      const body = (await request.json()) as Partial<Team>;
      posted.push(body);
      const refusal = create.shift();
      if (refusal) return refusal();
      const created = team({ id: 'tea_01JD3S4ZC5Q2X8V6N7M9P0R1N1', ...body });
      stored.push(created);
      return json(created, 201);
    }),
    http.patch('/api/v1/teams/:id', async ({ params, request }) => {
      const body = (await request.json()) as Partial<Team>;
      patched.push(body);
      const index = stored.findIndex((t) => t.id === params.id);
      stored[index] = { ...stored[index], ...body };
      return json(stored[index]);
    }),
    http.delete('/api/v1/teams/:id', ({ params }) => {
      deleted.push(String(params.id));
      stored.splice(
        stored.findIndex((t) => t.id === params.id),
        1,
      );
      return new Response(null, { status: 204 });
    }),
  );
  return { posted, patched, deleted };
}

/** The teams table's rows, cell by cell (the stacked table's cells as read). */
const teamRows = () => screen.queryAllByTestId('team').map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));

describe('teams', () => {
  // Sunday 1 March 2026, noon UTC: a team of Madrid opening on weekdays at 09:00 next opens on Monday (only Date is faked)
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-01T12:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('creates a team with what the form says, and lists it in words', async () => {
    const { posted } = teamsApi([]);
    const { user } = renderApp('/teams');
    await screen.findByText(/No team yet/);

    await user.click(screen.getByRole('button', { name: 'New team' }));
    const form = screen.getByRole('form', { name: 'New team' });
    expect((within(form).getByLabelText('Time zone') as HTMLInputElement).value).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    await user.type(within(form).getByLabelText('Name'), 'Support');
    await user.click(within(form).getByRole('checkbox', { name: 'Kari Agent' }));
    await user.click(within(form).getByRole('radio', { name: /^Least busy/ }));
    await user.type(within(form).getByLabelText('Most open conversations per member'), '5');
    await user.type(within(form).getByLabelText('Reassign after (minutes)'), '10');
    await user.type(within(form).getByLabelText('First reply within'), '15');
    await user.type(within(form).getByLabelText('Resolved within'), '8');
    await user.click(within(form).getByLabelText(/^Message outside business hours/));
    await user.paste('We are closed, back soon.');
    const zone = within(form).getByLabelText('Time zone');
    await user.clear(zone);
    await user.paste('Europe/Madrid');
    await user.click(within(form).getByRole('button', { name: 'Create team' }));

    await screen.findByText('Created the team Support.');
    expect(posted).toEqual([
      {
        name: 'Support',
        members: [kari.id],
        routing: 'least_busy',
        timezone: 'Europe/Madrid',
        business_hours: WEEKDAYS_9_TO_5,
        holidays: [],
        capacity_per_member: 5,
        reassign_after_seconds: 600,
        closed_message: 'We are closed, back soon.',
        sla: { first_response_seconds: 900, resolution_seconds: 8 * 3600 },
      },
    ]);
    expect(screen.queryByRole('form', { name: 'New team' })).toBeNull();
    await waitFor(() => expect(teamRows()).toHaveLength(1));
    const [name, members, routing, hours] = teamRows()[0];
    expect([name, members, routing]).toEqual(['Supportdefault', 'Kari Agent', 'Least busy']);
    expect(hours).toMatch(/^Closed · opens Mon 09:00( \(Madrid time\))?$/);
  }, 15_000);

  it('shows each field a 400 refusal names beside that field, in words, until it is edited', async () => {
    const { posted } = teamsApi(
      [],
      [
        () =>
          problem(400, 'The request is not valid.', [
            { field: 'members[0]', message: `${kari.id} is not a member of your team (GET /api/v1/team)` },
            { field: 'timezone', message: 'timezone must be an IANA time zone such as Europe/Madrid' },
            { field: 'business_hours', message: 'business_hours mon range 18:00-09:00 must end after it starts' },
          ]),
      ],
    );
    const { user } = renderApp('/teams');
    await screen.findByText(/No team yet/);

    await user.click(screen.getByRole('button', { name: 'New team' }));
    const form = screen.getByRole('form', { name: 'New team' });
    await user.type(within(form).getByLabelText('Name'), 'Support');
    await user.click(within(form).getByRole('checkbox', { name: 'Kari Agent' }));
    const zone = within(form).getByLabelText('Time zone');
    await user.clear(zone);
    await user.type(zone, 'Madrid');
    await user.click(within(form).getByRole('button', { name: 'Create team' }));

    // each refused field is marked and says why in words (no ids, no API paths)
    await waitFor(() => expect(zone.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(zone)).toBe('The time zone must be a time zone from the list, e.g. Europe/Berlin.');
    expect(descriptionOf(within(form).getByRole('group', { name: 'Members' }))).toContain('The members include someone who is no longer in your team.');
    const mondayFrom = within(screen.getByTestId('hours-mon')).getByLabelText(/Monday range 1 from/);
    expect(mondayFrom.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(mondayFrom)).toBe('The business hours on Monday: range 18:00-09:00 must end after it starts.');
    expect(within(form).getByLabelText('Name').getAttribute('aria-invalid')).toBeNull();
    expect(posted).toEqual([{ name: 'Support', members: [kari.id], routing: 'round_robin', timezone: 'Madrid', business_hours: WEEKDAYS_9_TO_5, holidays: [] }]);
    // nothing was made: the form stays, with what was typed
    expect(screen.getByRole('form', { name: 'New team' })).toBeTruthy();
    expect(teamRows()).toEqual([]);

    // the time zone's error goes once it is edited; the others stay
    await user.type(zone, 'x');
    expect(zone.getAttribute('aria-invalid')).toBeNull();
    expect(mondayFrom.getAttribute('aria-invalid')).toBe('true');
  }, 15_000);

  it('says a duplicate name beside the name', async () => {
    teamsApi([team()], [() => problem(409, 'A team with this name exists.', [{ field: 'name', message: 'name "Support" is already used by another team' }])]);
    const { user } = renderApp('/teams');
    await screen.findByTestId('team');

    await user.click(screen.getByRole('button', { name: 'New team' }));
    const form = screen.getByRole('form', { name: 'New team' });
    const name = within(form).getByLabelText('Name');
    await user.type(name, 'Support');
    await user.click(within(form).getByRole('button', { name: 'Create team' }));

    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(name)).toBe('The name "Support" is already used by another team.');
    expect(teamRows()).toHaveLength(1);
  });

  it('edits a team: the form starts from its settings and sends the whole team, emptied settings cleared with null', async () => {
    const support = team({ members: [kari.id], capacity_per_member: 4, sla: { first_response_seconds: 1800 }, holidays: ['2026-12-25'], open_now: true, next_opening_at: null });
    const { patched } = teamsApi([support]);
    const { user } = renderApp('/teams');
    await screen.findByTestId('team');
    expect(teamRows()[0].slice(0, 4)).toEqual(['Supportdefault', 'Kari Agent', 'Round robin', 'Open now']);

    await user.click(screen.getByRole('button', { name: 'Edit Support' }));
    const form = screen.getByRole('form', { name: 'Edit team Support' });
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Support');
    expect((within(form).getByRole('checkbox', { name: 'Kari Agent' }) as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByRole('radio', { name: /^Round robin/ }) as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByLabelText('Most open conversations per member') as HTMLInputElement).value).toBe('4');
    expect((within(form).getByLabelText('First reply within') as HTMLInputElement).value).toBe('30');
    expect(within(form).getByRole('list', { name: 'Holidays' }).textContent).toContain('Dec 25, 2026');

    await user.click(within(form).getByRole('checkbox', { name: 'Kari Agent' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Ada Owner (you)' }));
    await user.click(within(form).getByRole('radio', { name: /^Manual/ }));
    await user.clear(within(form).getByLabelText('Most open conversations per member'));
    // Saturday opens too, 10:00 to midnight (the time picker's 00:00 end)
    const saturday = within(screen.getByTestId('hours-sat'));
    await user.click(saturday.getByRole('checkbox', { name: 'Open' }));
    await user.clear(saturday.getByLabelText(/Saturday range 1 from/));
    await user.type(saturday.getByLabelText(/Saturday range 1 from/), '10:00');
    await user.clear(saturday.getByLabelText(/Saturday range 1 to/));
    await user.type(saturday.getByLabelText(/Saturday range 1 to/), '00:00');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));

    await screen.findByText('Saved the team Support.');
    expect(patched).toEqual([
      {
        name: 'Support',
        members: [owner.id],
        routing: 'manual',
        capacity_per_member: null,
        reassign_after_seconds: null,
        timezone: 'Europe/Madrid',
        business_hours: { ...WEEKDAYS_9_TO_5, sat: [['10:00', '24:00']] },
        holidays: ['2026-12-25'],
        closed_message: null,
        sla: { first_response_seconds: 1800 },
      },
    ]);
    await waitFor(() => expect(teamRows()[0].slice(0, 3)).toEqual(['Supportdefault', 'you', 'Manual']));
  }, 15_000);

  it('is not offered to a role that may not manage the team: no menu entry, and the page says why', async () => {
    const permissions = member().permissions.filter((p) => p !== 'team.manage' && p !== 'team.manage_owners');
    server.use(http.get('/api/v1/team/me', () => json(member({ role: 'agent', permissions }))));
    renderApp('/teams');

    expect(await screen.findByText('Your role cannot manage teams, their hours and routing. Ask an owner or an admin of your team.')).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Dashboard' });
    expect(within(menu).queryByRole('link', { name: 'Teams' })).toBeNull();
    expect(within(menu).getByRole('link', { name: 'Inbox' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New team' })).toBeNull();
  });

  it('deletes a team only once the owner confirms', async () => {
    const { deleted } = teamsApi([team(), team({ id: 'tea_01JD3S4ZC5Q2X8V6N7M9P0R1S2', name: 'Sales' })]);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { user } = renderApp('/teams');
    await waitFor(() => expect(teamRows()).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Delete Sales' }));
    expect(confirm).toHaveBeenLastCalledWith(expect.stringContaining('Delete the team Sales?'));
    expect(deleted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Sales' }));
    await screen.findByText('Deleted the team Sales.');
    expect(deleted).toEqual(['tea_01JD3S4ZC5Q2X8V6N7M9P0R1S2']);
    await waitFor(() => expect(teamRows().map((cells) => cells[0])).toEqual(['Supportdefault']));
    confirm.mockRestore();
  });
});
