import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationReport, ConversationReportRow } from '../../api';
import { member, page, team, teamMember } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { json, problem, server } from '../../test/server';
import { dayInWords } from './report-words';

// The browser says it is in Madrid, whatever zone the machine running the tests is in (often UTC, the API's default, so
// a page that left `tz` out or sent UTC would pass unnoticed). The dashboard reads the zone once, as it loads.
const ZONE = 'Europe/Madrid';
const { restoreZone } = vi.hoisted(() => {
  const original = Intl.DateTimeFormat.prototype.resolvedOptions;
  Intl.DateTimeFormat.prototype.resolvedOptions = function (this: Intl.DateTimeFormat) {
    return { ...original.call(this), timeZone: 'Europe/Madrid' };
  };
  return { restoreZone: () => void (Intl.DateTimeFormat.prototype.resolvedOptions = original) };
});
restoreZone();
const me = member();
const kari = teamMember();
const owner = teamMember({ id: me.id, name: me.name, role: 'owner' });
const support = team();

/** A report row: nothing happened unless the test says so. */
function row(overrides: Partial<ConversationReportRow>): ConversationReportRow {
  return {
    key: null,
    opened: 0,
    closed: 0,
    resolved_by_agent: 0,
    handed_off: 0,
    first_response_p50_s: null,
    first_response_p90_s: null,
    resolution_p50_s: null,
    resolution_p90_s: null,
    sla_breaches: 0,
    csat_avg: null,
    csat_count: 0,
    ...overrides,
  };
}

/** The report route answering `answer` (a report, or a refusal), every query it was asked recorded. */
function reportApi(answer: (query: Record<string, string>) => ConversationReport | Response) {
  const asked: Record<string, string>[] = [];
  server.use(
    http.get('/api/v1/reports/conversations', ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      asked.push(query);
      const answered = answer(query);
      return answered instanceof Response ? answered : json(answered);
    }),
    http.get('/api/v1/team', () => json(page([owner, kari]))),
    http.get('/api/v1/teams', () => json(page([support]))),
  );
  return asked;
}

/** The report table's rows, cell by cell. */
const tableRows = () => screen.queryAllByTestId('report-row').map((r) => within(r).getAllByRole('cell').map((cell) => cell.textContent));
/** A headline card's figure and note. */
const card = (id: string) => within(screen.getByTestId(`card-${id}`)).getAllByRole('definition').map((d) => d.textContent);

describe('reports', () => {
  // Wednesday 11 March 2026, noon in the browser's own time zone (only Date is faked)
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 2, 11, 12) }));
  afterEach(() => vi.useRealTimers());

  it('asks for the chosen period, in the browser’s time zone, grouped as chosen', async () => {
    const asked = reportApi(() => ({ data: [] }));
    const { user } = renderApp('/reports');

    // by default: the last 7 days, today included, by day
    await screen.findByText('No conversations started in this period.');
    expect(asked).toEqual([{ from: '2026-03-05', to: '2026-03-11', tz: ZONE, group_by: 'day' }]);

    await user.selectOptions(screen.getByLabelText('Period'), 'Last month');
    await waitFor(() => expect(asked.at(-1)).toEqual({ from: '2026-02-01', to: '2026-02-28', tz: ZONE, group_by: 'day' }));
    await user.click(screen.getByRole('radio', { name: 'By team' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ from: '2026-02-01', to: '2026-02-28', tz: ZONE, group_by: 'team' }));
    await user.selectOptions(screen.getByLabelText('Period'), 'This week');
    await waitFor(() => expect(asked.at(-1)).toEqual({ from: '2026-03-09', to: '2026-03-11', tz: ZONE, group_by: 'team' }));
    await user.selectOptions(screen.getByLabelText('Period'), 'This month');
    await user.click(screen.getByRole('radio', { name: 'By channel' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ from: '2026-03-01', to: '2026-03-11', tz: ZONE, group_by: 'channel' }));

    // custom dates: asked once they are applied, not while they are typed
    await user.selectOptions(screen.getByLabelText('Period'), 'Custom dates');
    const custom = screen.getByRole('form', { name: 'Custom dates' });
    const from = within(custom).getByLabelText('From');
    const to = within(custom).getByLabelText('To');
    expect([(from as HTMLInputElement).value, (to as HTMLInputElement).value]).toEqual(['2026-03-01', '2026-03-11']);
    await user.clear(from);
    await user.type(from, '2026-01-15');
    await user.clear(to);
    await user.type(to, '2026-01-31');
    expect(asked.some((q) => q.from === '2026-01-15')).toBe(false);
    await user.click(within(custom).getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ from: '2026-01-15', to: '2026-01-31', tz: ZONE, group_by: 'channel' }));
    expect(new Set(asked.map((q) => q.tz))).toEqual(new Set([ZONE]));
  }, 15_000);

  it('shows the period’s totals on the cards and a row per member in words, by name, the unassigned ones last', async () => {
    reportApi((q) => ({
      data: q.group_by !== 'member' ? [] : [
        row({ key: null, opened: 10, closed: 2, resolved_by_agent: 10, resolution_p50_s: 300, resolution_p90_s: 900 }),
        row({
          key: me.id,
          opened: 10,
          closed: 10,
          resolved_by_agent: 6,
          handed_off: 4,
          first_response_p50_s: 45,
          first_response_p90_s: 600,
          resolution_p50_s: 1800,
          resolution_p90_s: 7200,
          csat_avg: 3,
          csat_count: 2,
        }),
        row({
          key: kari.id,
          opened: 30,
          closed: 25,
          resolved_by_agent: 18,
          handed_off: 12,
          first_response_p50_s: 240,
          first_response_p90_s: 4800,
          resolution_p50_s: 5400,
          resolution_p90_s: 93_600,
          sla_breaches: 2,
          csat_avg: 4.8,
          csat_count: 8,
        }),
      ],
    }));
    const { user } = renderApp('/reports');
    await screen.findByText('No conversations started in this period.');
    await user.click(screen.getByRole('radio', { name: 'By team member' }));

    await waitFor(() => expect(tableRows().map((cells) => cells[0])).toEqual(['Kari Agent', 'Ada Owner (you)', 'Unassigned']));
    expect(tableRows()).toEqual([
      ['Kari Agent', '30', '25', '18 (60%)', '12', '4 min', '1 h 20 min', '1 h 30 min', '1 day 2 h', '2', '4.8 / 5 (8 ratings)'],
      ['Ada Owner (you)', '10', '10', '6 (60%)', '4', '45 s', '10 min', '30 min', '2 h', '0', '3.0 / 5 (2 ratings)'],
      ['Unassigned', '10', '2', '10 (100%)', '0', '—', '—', '5 min', '15 min', '0', 'No ratings yet'],
    ]);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Team member',
      'Conversations',
      'Closed',
      'Resolved by AI alone',
      'Handed to a person',
      'Median first reply',
      '9 in 10 first replies within',
      'Median time to resolve',
      '9 in 10 resolved within',
      'Missed response targets',
      'Customer rating',
    ]);
    // no id shown anywhere
    expect(document.body.textContent).not.toMatch(/usr_|tea_/);

    // the whole period: counts added up, the rating averaged over every rating ((4.8 × 8 + 3 × 2) / 10, not (4.8 + 3) / 2)
    expect(card('opened')).toEqual(['50', '37 closed']);
    expect(card('resolved-by-ai')).toEqual(['68%', '34 of 50 without a person']);
    expect(card('handed-off')).toEqual(['16', '32% of conversations']);
    expect(card('sla-breaches')[0]).toBe('2');
    expect(card('csat')).toEqual(['4.4 / 5 (10 ratings)']);
    // a median of medians is not the period's: the cards point at the rows
    expect(card('first-reply')[0]).toBe('Shown for each team member below');
    expect(card('resolution')[0]).toBe('Shown for each team member below');

    // the chart: a bar pair per member, by name
    expect(within(screen.getByTestId('report-chart')).getAllByText(/^(Kari Agent|Ada Owner \(you\)|Unassigned)$/)).toHaveLength(3);
  }, 15_000);

  it('shows the medians on the cards when one row holds the whole period, and every day of it on the chart', async () => {
    reportApi(() => ({
      data: [row({ key: '2026-03-10', opened: 5, closed: 3, resolved_by_agent: 3, handed_off: 2, first_response_p50_s: 240, first_response_p90_s: 4800, csat_count: 0 })],
    }));
    renderApp('/reports');

    await waitFor(() => expect(tableRows()).toHaveLength(1));
    expect(tableRows()[0].slice(0, 5)).toEqual([dayInWords('2026-03-10'), '5', '3', '3 (60%)', '2']);
    expect(card('first-reply')).toEqual(['4 min', '9 in 10 within 1 h 20 min']);
    expect(card('resolution')).toEqual(['None closed yet']);
    expect(card('resolved-by-ai')[0]).toBe('60%');
    expect(card('csat')).toEqual(['No ratings yet']);
    // seven days, the six without conversations at zero
    const bars = [...screen.getByTestId('report-chart').querySelectorAll('g > title')].map((t) => t.textContent);
    expect(bars).toHaveLength(7);
    expect(bars.filter((t) => t?.endsWith(': 0 opened, 0 handed to a person'))).toHaveLength(6);
    expect(bars[5]).toBe(`${dayInWords('2026-03-10')}: 5 opened, 2 handed to a person`);
  });

  it('names teams and channels, and a conversation without a team as “No team”', async () => {
    reportApi((q) => ({
      data:
        q.group_by === 'team'
          ? [row({ key: null, opened: 1 }), row({ key: support.id, opened: 4 }), row({ key: 'tea_01JD3S4ZC5Q2X8V6N7M9P0GONE', opened: 2 })]
          : q.group_by === 'channel'
            ? [row({ key: 'whatsapp', opened: 5 }), row({ key: 'sms', opened: 2 })]
            : [],
    }));
    const { user } = renderApp('/reports');
    await screen.findByText('No conversations started in this period.');

    await user.click(screen.getByRole('radio', { name: 'By team' }));
    await waitFor(() => expect(tableRows().map((cells) => cells.slice(0, 2))).toEqual([['Support', '4'], ['A deleted team', '2'], ['No team', '1']]));
    await user.click(screen.getByRole('radio', { name: 'By channel' }));
    await waitFor(() => expect(tableRows().map((cells) => cells.slice(0, 2))).toEqual([['WhatsApp', '5'], ['SMS', '2']]));
  });

  it('shows a refused period’s reason in words', async () => {
    reportApi((q) =>
      q.from === '2025-01-01'
        ? problem(400, 'The query parameters are not valid.', [{ field: 'to', message: 'the period must be at most a year (to − from ≤ 366 days)' }])
        : { data: [] },
    );
    const { user } = renderApp('/reports');
    await screen.findByText('No conversations started in this period.');

    await user.selectOptions(screen.getByLabelText('Period'), 'Custom dates');
    const custom = screen.getByRole('form', { name: 'Custom dates' });
    await user.clear(within(custom).getByLabelText('From'));
    await user.type(within(custom).getByLabelText('From'), '2025-01-01');
    await user.click(within(custom).getByRole('button', { name: 'Show' }));

    expect((await screen.findByRole('alert')).textContent).toBe('The query parameters are not valid. The period can be at most a year long.');
    expect(screen.queryByText('No conversations started in this period.')).toBeNull();
    expect(screen.queryAllByTestId('report-row')).toEqual([]);
  });

  it('exports the chosen period’s conversations as a CSV file', async () => {
    reportApi(() => ({ data: [] }));
    const exported: URL[] = [];
    const CSV = 'id,channel,customer\ncnv_01,whatsapp,+14155550123\n';
    server.use(
      http.get('/api/v1/reports/conversations.csv', ({ request }) => {
        exported.push(new URL(request.url));
        return new HttpResponse(CSV, { headers: { 'content-type': 'text/csv; charset=utf-8' } });
      }),
    );
    const blobs: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: (blob: Blob) => (blobs.push(blob), 'blob:report') });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    const saved: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    try {
      const { user } = renderApp('/reports');
      await screen.findByText('No conversations started in this period.');
      await user.selectOptions(screen.getByLabelText('Period'), 'This month');
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));

      await waitFor(() => expect(saved).toEqual([{ href: 'blob:report', download: 'conversations-2026-03-01-to-2026-03-11.csv' }]));
      expect(exported.map((u) => [u.pathname, Object.fromEntries(u.searchParams)])).toEqual([
        ['/api/v1/reports/conversations.csv', { from: '2026-03-01', to: '2026-03-11', tz: ZONE }],
      ]);
      expect(await blobs[0].text()).toBe(CSV);
    } finally {
      click.mockRestore();
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    }
  });

  it('is in the menu of an agent member, and tells them it holds only their own conversations', async () => {
    const permissions = member().permissions.filter((p) => ['conversations.reply', 'contacts.edit', 'messages.send'].includes(p));
    server.use(http.get('/api/v1/team/me', () => json(member({ role: 'agent', permissions }))));
    const asked = reportApi(() => ({ data: [] }));
    renderApp('/reports');

    expect((await screen.findByTestId('own-rows-notice')).textContent).toBe('You see only the conversations assigned to you. Owners and admins see everyone’s.');
    await screen.findByText('None of the conversations assigned to you started in this period.');
    expect(asked).toHaveLength(1);
    const menu = screen.getByRole('navigation', { name: 'Dashboard' });
    expect(within(menu).getByRole('link', { name: 'Reports' }).getAttribute('aria-current')).toBe('page');
    expect(within(menu).queryByRole('link', { name: 'Usage' })).toBeNull();
  });

  it('says nothing of “your own” to an owner, who sees everyone’s', async () => {
    reportApi(() => ({ data: [row({ key: '2026-03-11', opened: 1 })] }));
    renderApp('/reports');
    await waitFor(() => expect(tableRows()).toHaveLength(1));
    expect(screen.queryByTestId('own-rows-notice')).toBeNull();
    const menu = screen.getByRole('navigation', { name: 'Dashboard' });
    const reports = within(menu).getByRole('link', { name: 'Reports' });
    // under the Reports title, before Usage
    expect(within(reports.closest('ul') as HTMLElement).getAllByRole('link').map((l) => l.textContent)).toEqual(['Reports', 'Usage']);
  });
});
