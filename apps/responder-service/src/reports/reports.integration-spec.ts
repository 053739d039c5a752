import { newId, type ConversationReportRow } from '@parley/contracts';
import { ResponderHarness } from '../test/responder-harness';

const ANA = 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9A';
const BEN = 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9B';
const SUPPORT = 'tea_01JD8Z9D1B2C3D4E5F6G7H8J9S';

interface Scripted {
  start: string;
  channel?: 'whatsapp' | 'sms' | 'email';
  assignee?: string;
  /** Minutes after the start: the handoff, a person's first reply, the close. */
  handoff?: number;
  reply?: number;
  close?: number;
  breached?: boolean;
  /** The customer's CSAT answer, 1–5. */
  rating?: number;
  source?: 'customer' | 'playground';
}

/** The p-th percentile as PostgreSQL's percentile_cont computes it (linear between the closest ranks), worked out here independently. */
function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const low = Math.floor(rank);
  return Math.round(sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (rank - low));
}

/**
 * The conversation reports (CONTRACT.md §18) over a scripted day of conversations stored as the inbox leaves them:
 * counts, medians and CSAT checked against figures worked out in the test, days in the report's time zone, an agent's own
 * rows, the CSV lines, and another tenant's and the playground's conversations left out.
 */
describe('responder-service: conversation reports', () => {
  let h: ResponderHarness;
  const tenant = newId('ten');

  async function store(tenantId: string, c: Scripted): Promise<string> {
    const id = newId('cnv');
    const start = new Date(c.start);
    const at = (minutes: number | undefined) => (minutes === undefined ? null : new Date(start.getTime() + minutes * 60_000));
    await h.sql.query(
      `INSERT INTO conversations (id, tenant_id, channel_id, channel, business_number, customer, state, started_at, last_message_at, source, assignee, team_id,
                                  handed_off_at, first_member_reply_at, closed_at, sla_breaches, rating_score, rated_at)
       VALUES ($1, $2, 'chn_01JD8Z9D1B2C3D4E5F6G7H8J9K', $3, '+4930000001', $4, $5, $6, $6, $7, $8, $9, $10, $11, $12, $13, $14, CASE WHEN $14::int IS NOT NULL THEN $12::timestamptz END)`,
      [
        id,
        tenantId,
        c.channel ?? 'whatsapp',
        `+49301${Math.floor(Math.random() * 1e6)}`,
        c.close !== undefined ? 'closed' : c.handoff !== undefined ? 'handed_off' : 'active',
        start,
        c.source ?? 'customer',
        c.assignee ?? null,
        c.handoff !== undefined ? SUPPORT : null,
        at(c.handoff),
        at(c.reply),
        at(c.close),
        c.breached ? ['first_response'] : [],
        c.rating ?? null,
      ],
    );
    return id;
  }

  const DAY: Scripted[] = [
    // the agent alone: two answered and left open, one closed after 20 min
    { start: '2026-11-10T08:00:00Z' },
    { start: '2026-11-10T09:00:00Z', channel: 'sms' },
    { start: '2026-11-10T10:00:00Z', close: 20, rating: 5 },
    // handed off to Ana: replies after 4, 10 and 30 min (the last one late), closes after 60 and 90
    { start: '2026-11-10T11:00:00Z', assignee: ANA, handoff: 2, reply: 6, close: 60, rating: 4 },
    { start: '2026-11-10T12:00:00Z', assignee: ANA, handoff: 1, reply: 11, close: 90, rating: 2 },
    { start: '2026-11-10T13:00:00Z', assignee: ANA, handoff: 0, reply: 30, breached: true },
    // Ben: a reply after 2 min on email
    { start: '2026-11-10T14:00:00Z', channel: 'email', assignee: BEN, handoff: 5, reply: 7 },
    // waiting, nobody's yet
    { start: '2026-11-10T15:00:00Z', handoff: 3 },
    // late on the 10th in UTC, the 11th in Madrid
    { start: '2026-11-10T23:30:00Z', assignee: BEN, handoff: 1, reply: 4, close: 10 },
  ];

  beforeAll(async () => {
    h = await ResponderHarness.start('reports');
    for (const c of DAY) await store(tenant, c);
    // left out: the playground, another day, another tenant
    await store(tenant, { start: '2026-11-10T16:00:00Z', source: 'playground', handoff: 1, reply: 2 });
    await store(tenant, { start: '2026-11-12T09:00:00Z' });
    await store(newId('ten'), { start: '2026-11-10T12:00:00Z', handoff: 1, reply: 2 });
  });

  afterAll(async () => {
    await h?.close();
  });

  const report = (groupBy: 'day' | 'member' | 'team' | 'channel', scope: Partial<{ from: string; to: string; tz: string; member: string | null }> = {}) =>
    h.kafka.rpc.request('reports.conversations', { tenant_id: tenant, from: '2026-11-10', to: '2026-11-11', tz: 'UTC', member: null, group_by: groupBy, ...scope });

  /** The figures a group's conversations should give, worked out from the script. */
  function expected(key: string | null, group: Scripted[]): ConversationReportRow {
    const firstResponses = group.filter((c) => c.reply !== undefined && c.handoff !== undefined).map((c) => (c.reply! - c.handoff!) * 60);
    const resolutions = group.filter((c) => c.close !== undefined).map((c) => c.close! * 60);
    const ratings = group.filter((c) => c.rating !== undefined).map((c) => c.rating!);
    return {
      key,
      opened: group.length,
      closed: resolutions.length,
      resolved_by_agent: group.filter((c) => c.handoff === undefined).length,
      handed_off: group.filter((c) => c.handoff !== undefined).length,
      first_response_p50_s: percentile(firstResponses, 0.5),
      first_response_p90_s: percentile(firstResponses, 0.9),
      resolution_p50_s: percentile(resolutions, 0.5),
      resolution_p90_s: percentile(resolutions, 0.9),
      sla_breaches: group.filter((c) => c.breached).length,
      csat_avg: ratings.length ? Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 100) / 100 : null,
      csat_count: ratings.length,
    };
  }

  it('counts a day in UTC: opened, closed, resolved by the agent, handed off, first response and resolution medians, breaches', async () => {
    expect((await report('day')).data).toEqual([expected('2026-11-10', DAY)]);
  });

  it('counts days in the report’s time zone', async () => {
    const { data } = await report('day', { tz: 'Europe/Madrid' });
    expect(data).toEqual([expected('2026-11-10', DAY.slice(0, -1)), expected('2026-11-11', DAY.slice(-1))]);
  });

  it('groups by member and by channel, unassigned last', async () => {
    const by = (pick: (c: Scripted) => string | null) => (key: string | null) => expected(key, DAY.filter((c) => pick(c) === key));
    const member = by((c) => c.assignee ?? null);
    expect((await report('member')).data).toEqual([member(ANA), member(BEN), member(null)]);
    const channel = by((c) => c.channel ?? 'whatsapp');
    expect((await report('channel')).data).toEqual([channel('email'), channel('sms'), channel('whatsapp')]);
  });

  it('gives a member of role agent only the conversations they hold', async () => {
    expect((await report('day', { member: BEN })).data).toEqual([expected('2026-11-10', DAY.filter((c) => c.assignee === BEN))]);
  });

  it('lists one line per conversation for the CSV, a page at a time', async () => {
    const first = await h.kafka.rpc.request('reports.conversation-lines', { tenant_id: tenant, from: '2026-11-10', to: '2026-11-10', tz: 'UTC', member: null, limit: 5, cursor: null });
    expect(first.data).toHaveLength(5);
    const rest = await h.kafka.rpc.request('reports.conversation-lines', { tenant_id: tenant, from: '2026-11-10', to: '2026-11-10', tz: 'UTC', member: null, limit: 5, cursor: first.next_cursor });
    const lines = [...first.data, ...rest.data];
    expect(rest.next_cursor).toBeNull();
    expect(lines).toHaveLength(DAY.length);
    expect(lines.find((l) => l.first_response_s === 1800)).toMatchObject({ assignee: ANA, team_id: SUPPORT, state: 'handed_off', sla_breached: true, closed_at: null, resolution_s: null });
    expect(lines.filter((l) => l.resolution_s !== null).map((l) => l.resolution_s).sort((a, b) => a! - b!)).toEqual([600, 1200, 3600, 5400]);
  });
});
