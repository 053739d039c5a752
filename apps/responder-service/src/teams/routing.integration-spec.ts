import { ProblemTypes, Topics, WEEKDAYS, type ConversationSlaBreachedEvent, type ConversationUpdatedEvent, type TeamRecord } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { DateTime } from 'luxon';
import { BUSINESS, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';
import { RoutingService } from './routing.service';

const ANA = 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9A';
const BEN = 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9B';
const CARO = 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9C';
/** A team that is always open, whatever the hour the suite runs at (closed hours are tested with hours of their own). */
const ALWAYS_OPEN = Object.fromEntries(WEEKDAYS.map((day) => [day, [['00:00', '24:00']]]));

/**
 * Routing handed-off conversations to team members (CONTRACT.md §18) over real Kafka and PostgreSQL: presence and
 * capacity, round-robin and least-busy, the queue and its one waiting message, closed hours, reassignment, rules, and
 * two passes at once leaving one assignee.
 */
describe('responder-service: teams and routing', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;
  let updates: TopicProbe<ConversationUpdatedEvent>;
  let breaches: TopicProbe<ConversationSlaBreachedEvent>;
  let tenantSeq = 0;

  beforeAll(async () => {
    h = await ResponderHarness.start('routing');
    out = await h.probeOutputs();
    updates = await h.kafka.probe<ConversationUpdatedEvent>(Topics.ConversationUpdated);
    breaches = await h.kafka.probe<ConversationSlaBreachedEvent>(Topics.ConversationSlaBreached);
  });

  afterAll(async () => {
    await updates?.stop();
    await breaches?.stop();
    await h?.close();
  });

  const rpc = () => h.kafka.rpc;

  /** A tenant with an agent, so a customer asking for a person is handed off. */
  async function tenant(): Promise<string> {
    const id = `ten_routing_${++tenantSeq}_${Date.now()}`;
    await h.announceAgent(id, agentRecord('support'));
    return id;
  }

  function team(tenantId: string, body: Record<string, unknown>): Promise<TeamRecord> {
    return rpc().request('teams.create', { tenant_id: tenantId, body: { name: 'Support', members: [ANA, BEN, CARO], routing: 'round_robin', timezone: 'UTC', business_hours: ALWAYS_OPEN, ...body } });
  }

  async function online(tenantId: string, ...members: string[]): Promise<void> {
    for (const member of members) await rpc().request('presence.seen', { tenant_id: tenantId, member_id: member });
  }

  /** The customer asks for a person; answers their conversation's id once the handoff is stored. */
  async function handOff(tenantId: string, customer: string, text = 'I want to talk to a person please'): Promise<string> {
    const event = inboundEvent(tenantId, { from: customer, to: BUSINESS, text });
    await h.deliverInbound(event);
    await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === event.data.message_id), { description: `message.received of "${text}"` });
    const [row]: { id: string; state: string }[] = await h.sql.query('SELECT id, state FROM conversations WHERE tenant_id = $1 AND customer = $2', [tenantId, customer]);
    expect(row.state).toBe('handed_off');
    return row.id;
  }

  const conversation = (tenantId: string, id: string) => rpc().request('conversations.get', { tenant_id: tenantId, id, reader: null });
  const assigneeOf = async (tenantId: string, id: string) => (await conversation(tenantId, id)).assignee;
  const waitingMessagesTo = (customer: string) => out.outbound.messages.filter((m) => m.value.data.to === customer && !m.value.data.in_reply_to);

  it('checks a team and its rules, naming the field, and keeps one team per name', async () => {
    const t = await tenant();
    await expect(team(t, { routing: 'random' })).rejects.toMatchObject({ problem: { status: 400, errors: [{ field: 'routing' }] } });
    await expect(team(t, { business_hours: { mon: [['18:00', '09:00']] } })).rejects.toMatchObject({ problem: { status: 400, errors: [{ field: 'business_hours' }] } });
    await expect(team(t, { timezone: 'Mars/Olympus' })).rejects.toMatchObject({ problem: { status: 400, errors: [{ field: 'timezone' }] } });
    const support = await team(t, { capacity_per_member: 3, sla: { first_response_seconds: 900 } });
    expect(support).toMatchObject({ id: expect.stringMatching(/^tea_/), capacity_per_member: 3, reassign_after_seconds: null, sla: { first_response_seconds: 900 }, open_now: true, next_opening_at: null });
    await expect(team(t, {})).rejects.toMatchObject({ problem: { status: 409, type: ProblemTypes.conflict, errors: [{ field: 'name' }] } });
    // a field that cannot be cleared refuses null rather than reaching its NOT NULL column
    for (const field of ['name', 'members', 'timezone', 'business_hours', 'holidays']) {
      const refused = await rpc().request('teams.update', { tenant_id: t, id: support.id, body: { [field]: null } }).then(
        () => null,
        (err: { problem?: { status: number; errors?: { field: string }[] } }) => err.problem,
      );
      expect({ field, status: refused?.status, fields: [...new Set(refused?.errors?.map((e) => e.field))] }).toEqual({ field, status: 400, fields: [field] });
    }
    expect(await rpc().request('teams.update', { tenant_id: t, id: support.id, body: { capacity_per_member: null, sla: null } })).toMatchObject({ capacity_per_member: null, sla: null });

    await expect(rpc().request('routing-rules.replace', { tenant_id: t, body: [{ match: { channel: 'fax' }, team_id: support.id }] })).rejects.toMatchObject({
      problem: { status: 400, errors: [{ field: '[0].match.channel' }] },
    });
    const elsewhere = await team(await tenant(), {});
    await expect(rpc().request('routing-rules.replace', { tenant_id: t, body: [{ match: { channel: 'fax' }, team_id: support.id }, { match: {}, team_id: elsewhere.id }] })).rejects.toMatchObject({
      problem: { status: 400, errors: [{ field: '[0].match.channel' }, { field: '[1].team_id' }] },
    });
    await expect(rpc().request('teams.get', { tenant_id: t, id: elsewhere.id })).rejects.toMatchObject({ problem: { status: 404 } });
    expect(await rpc().request('routing-rules.replace', { tenant_id: t, body: [{ match: { keyword: 'refund' }, team_id: support.id }] })).toEqual({
      data: [{ match: { keyword: 'refund' }, team_id: support.id }],
    });
  });

  it('round-robin gives each handoff to the next available member under capacity; the rest wait, told once, until someone can take them', async () => {
    const t = await tenant();
    await team(t, { capacity_per_member: 1 });
    await online(t, ANA, BEN, CARO);
    await rpc().request('presence.set', { tenant_id: t, member_id: BEN, status: 'away' });

    const first = await handOff(t, phoneNumber());
    await pollUntil(async () => (await assigneeOf(t, first)) === ANA, { description: 'the first handoff with Ana' });
    const second = await handOff(t, phoneNumber());
    // Ben is away: Caro is next in turn
    await pollUntil(async () => (await assigneeOf(t, second)) === CARO, { description: 'the second handoff with Caro' });

    const customer = phoneNumber();
    const third = await handOff(t, customer);
    // Ana and Caro hold one each (capacity 1), Ben is away: it waits, and the customer hears it once
    const told = await pollUntil(() => waitingMessagesTo(customer)[0], { description: 'the waiting message' });
    expect(told.value.data.content).toMatchObject({ type: 'text', text: expect.stringContaining('everyone on our team is busy') });
    expect(await conversation(t, third)).toMatchObject({ assignee: null, team_id: expect.stringMatching(/^tea_/), state: 'handed_off' });
    await h.app.get(RoutingService).routeTenant(t);
    expect(waitingMessagesTo(customer)).toHaveLength(1);

    // Ben is back: the waiting conversation is his
    await rpc().request('presence.set', { tenant_id: t, member_id: BEN, status: 'online' });
    await pollUntil(async () => (await assigneeOf(t, third)) === BEN, { description: 'the waiting conversation with Ben' });
    expect(waitingMessagesTo(customer)).toHaveLength(1);
    const thread = await conversation(t, third);
    expect(thread.messages.filter((m) => m.text.includes('everyone on our team is busy'))).toHaveLength(1);
  });

  it('least-busy gives the handoff to the member holding the fewest open conversations', async () => {
    const t = await tenant();
    const support = await team(t, { routing: 'least_busy', members: [ANA, BEN] });
    await online(t, ANA, BEN);
    const held = [await handOff(t, phoneNumber()), await handOff(t, phoneNumber())];
    await pollUntil(async () => (await Promise.all(held.map((id) => assigneeOf(t, id)))).every((a) => a !== null), { description: 'both assigned' });
    // both to Ana by hand: Ben holds none
    for (const id of held) await rpc().request('conversations.update', { tenant_id: t, id, change: { assignee: ANA }, actor: { type: 'api' } });
    const next = await handOff(t, phoneNumber());
    await pollUntil(async () => (await assigneeOf(t, next)) === BEN, { description: 'the handoff with Ben, who holds fewest' });
    expect((await conversation(t, next)).team_id).toBe(support.id);
  });

  it('two routing passes at once leave one assignee and one announcement', async () => {
    const t = await tenant();
    await team(t, { members: [ANA, BEN] });
    // nobody online: the handoff waits in the queue
    const id = await handOff(t, phoneNumber());
    await pollUntil(async () => (await conversation(t, id)).team_id !== null, { description: 'routed to the team' });
    // they come online (waking this instance's worker too) while three more passes run at once
    await online(t, ANA, BEN);
    const routing = h.app.get(RoutingService);
    await Promise.all([routing.routeTenant(t), routing.routeTenant(t), routing.routeTenant(t)]);
    // a pass that found the tenant locked by another (the worker's, say) skips it: the one holding it assigns
    const assignee = await pollUntil(async () => (await assigneeOf(t, id)) ?? undefined, { description: 'the conversation assigned' });
    await routing.routeTenant(t);
    expect([ANA, BEN]).toContain(assignee);
    expect(await assigneeOf(t, id)).toBe(assignee);
    await pollUntil(() => updates.messages.some((m) => m.value.data.conversation.id === id && m.value.data.conversation.assignee === assignee), { description: 'the assignment announced' });
    expect(updates.messages.filter((m) => m.value.data.conversation.id === id && m.value.data.change === 'assignee' && m.value.data.conversation.assignee !== null)).toHaveLength(1);
  });

  it('reassigns a conversation whose assignee sent nothing within the reassign time, and not one they answered', async () => {
    const t = await tenant();
    await team(t, { members: [ANA, BEN], reassign_after_seconds: 60 });
    await online(t, ANA, BEN);
    const silent = await handOff(t, phoneNumber());
    await pollUntil(async () => (await assigneeOf(t, silent)) === ANA, { description: 'assigned to Ana' });
    const answered = await handOff(t, phoneNumber());
    await pollUntil(async () => (await assigneeOf(t, answered)) === BEN, { description: 'assigned to Ben' });
    await rpc().request('conversations.reply', { tenant_id: t, id: answered, message: 'Hi, Ben here', actor: { type: 'member', id: BEN } });
    // a minute passes (the clock moved back rather than waited for)
    await h.sql.query(`UPDATE conversations SET assigned_at = assigned_at - interval '61 seconds', member_replied_at = member_replied_at - interval '61 seconds' WHERE tenant_id = $1`, [t]);
    await h.app.get(RoutingService).routeTenant(t);
    // (or the worker's pass, should it hold the tenant then)
    await pollUntil(async () => (await assigneeOf(t, silent)) === BEN || undefined, { description: 'the silent one with Ben' });
    expect(await assigneeOf(t, answered)).toBe(BEN);
  });

  it('announces a missed first response once, and nothing for a conversation answered in time', async () => {
    const t = await tenant();
    const support = await team(t, { members: [ANA, BEN], sla: { first_response_seconds: 60, resolution_seconds: 3600 } });
    await online(t, ANA, BEN);
    const late = await handOff(t, phoneNumber());
    const answered = await handOff(t, phoneNumber());
    await pollUntil(async () => (await assigneeOf(t, late)) !== null && (await assigneeOf(t, answered)) !== null, { description: 'both assigned' });
    const due = (await conversation(t, late)).sla;
    expect(due).toMatchObject({ first_response_due_at: expect.any(String), resolution_due_at: expect.any(String), breached: false });
    await rpc().request('conversations.reply', { tenant_id: t, id: answered, message: 'Hello, how can I help?', actor: { type: 'api' } });
    // 61 s pass (the clock moved back rather than waited for)
    await h.sql.query(
      `UPDATE conversations SET queued_at = queued_at - interval '61 seconds', member_replied_at = member_replied_at - interval '61 seconds',
              sla_first_response_due_at = sla_first_response_due_at - interval '61 seconds', sla_resolution_due_at = sla_resolution_due_at - interval '61 seconds',
              sla_check_at = sla_check_at - interval '61 seconds' WHERE tenant_id = $1`,
      [t],
    );
    const routing = h.app.get(RoutingService);
    await routing.routeTenant(t);
    await routing.routeTenant(t);
    const breach = await pollUntil(() => breaches.messages.find((m) => m.value.tenant_id === t), { description: 'conversation.sla_breached' });
    expect(breach.value.data).toMatchObject({ conversation_id: late, team_id: support.id, target: 'first_response', assignee: expect.stringMatching(/^usr_/) });
    expect(await conversation(t, late)).toMatchObject({ sla: { breached: true } });
    expect(await conversation(t, answered)).toMatchObject({ sla: { breached: false } });
    // the resolution target is still ahead: checked again then, and nothing more now
    const [row]: { sla_check_at: Date }[] = await h.sql.query('SELECT sla_check_at FROM conversations WHERE id = $1', [late]);
    expect(row.sla_check_at.getTime()).toBeGreaterThan(Date.now());
    await routing.routeTenant(t);
    await pollUntil(() => updates.messages.some((m) => m.value.data.conversation.id === late && m.value.data.conversation.sla?.breached), { description: 'the breach on the dashboards' });
    expect(breaches.messages.filter((m) => m.value.tenant_id === t)).toHaveLength(1);
  });

  it('outside business hours a handoff waits and the customer gets the closed message with the next opening, in their language', async () => {
    const t = await tenant();
    const tomorrow = DateTime.utc().plus({ days: 1 });
    const day = (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const)[tomorrow.weekday - 1];
    await team(t, { business_hours: { [day]: [['09:00', '17:00']] }, closed_message: 'Estamos cerrados.' });
    await online(t, ANA, BEN, CARO);
    const customer = phoneNumber();
    const id = await handOff(t, customer, 'Quiero hablar con una persona, por favor');
    const told = await pollUntil(() => waitingMessagesTo(customer)[0], { description: 'the closed message' });
    const text = (told.value.data.content as { text: string }).text;
    expect(text).toContain('Estamos cerrados.');
    expect(text).toContain(`Volvemos el ${tomorrow.setLocale('es').toFormat('cccc d')}`);
    expect(text).toContain('09:00');
    expect(await assigneeOf(t, id)).toBeNull();
  });

  it('routing rules pick the team: a keyword, then the default team', async () => {
    const t = await tenant();
    const support = await team(t, { members: [ANA] });
    const sales = await team(t, { name: 'Sales', members: [BEN] });
    await online(t, ANA, BEN);
    await rpc().request('routing-rules.replace', { tenant_id: t, body: [{ match: { keyword: 'precio', skill: 'human' }, team_id: sales.id }] });
    const priced = await handOff(t, phoneNumber(), 'Quiero hablar con una persona sobre el PRECIO');
    const other = await handOff(t, phoneNumber());
    await pollUntil(async () => (await assigneeOf(t, priced)) === BEN && (await assigneeOf(t, other)) === ANA, { description: 'each with their team' });
    expect((await conversation(t, priced)).team_id).toBe(sales.id);
    expect((await conversation(t, other)).team_id).toBe(support.id);
  });

  it('labels a conversation and moves it to a team, refusing a team the tenant lacks', async () => {
    const t = await tenant();
    const sales = await team(t, { name: 'Sales', members: [BEN] });
    const id = await handOff(t, phoneNumber());
    const labelled = await rpc().request('conversations.update', { tenant_id: t, id, change: { labels: ['vip', 'refund'], team_id: sales.id }, actor: { type: 'api' } });
    expect(labelled).toMatchObject({ labels: ['refund', 'vip'], team_id: sales.id });
    const listed = await rpc().request('conversations.list', { tenant_id: t, limit: 10, cursor: null, state: null, assignee: null, channel: null, q: null, label: 'vip' });
    expect(listed.data.map((c) => c.id)).toEqual([id]);
    await expect(
      rpc().request('conversations.update', { tenant_id: t, id, change: { team_id: 'tea_01JD8Z9D1B2C3D4E5F6G7H8J9K' }, actor: { type: 'api' } }),
    ).rejects.toMatchObject({ problem: { status: 400, errors: [{ field: 'team_id' }] } });
  });
});
