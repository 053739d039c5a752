import { containsPhrase, memberFor, teamFor, type RoutingFacts, type TeamRoster } from './routing';

const FACTS: RoutingFacts = { channel: 'whatsapp', channelId: 'chn_01JD8Z9D1B2C3D4E5F6G7H8J9K', skill: 'human', text: '¿Cuál es el precio del reembolso?', contactTags: ['VIP'] };

describe('routing rules', () => {
  it('takes the first rule whose every condition holds, else the default team', () => {
    const rules = [
      { match: { channel: 'sms' }, team_id: 'sms' },
      { match: { keyword: 'precio', skill: 'lead_capture' }, team_id: 'sales-leads' },
      { match: { keyword: 'Precio' }, team_id: 'sales' },
      { match: {}, team_id: 'everyone' },
    ];
    expect(teamFor(rules, FACTS, 'default')).toBe('sales');
    expect(teamFor(rules.slice(0, 2), FACTS, 'default')).toBe('default');
    expect(teamFor([{ match: { contact_tag: 'vip' }, team_id: 'vip' }], FACTS, null)).toBe('vip');
    expect(teamFor([{ match: { channel: FACTS.channelId }, team_id: 'this-number' }], FACTS, null)).toBe('this-number');
  });

  it('matches a keyword as whole words, case and accents ignored', () => {
    expect(containsPhrase('¿Un REEMBOLSÓ, por favor?', 'reembolso')).toBe(true);
    expect(containsPhrase('I want a refund now', 'refund now')).toBe(true);
    expect(containsPhrase('refunded already', 'refund')).toBe(false);
  });
});

describe('choosing a member', () => {
  const team = (routing: TeamRoster['routing'], lastAssigned: string | null = null, capacity: number | null = null): TeamRoster => ({ members: ['ana', 'ben', 'caro'], routing, capacity, lastAssigned });
  const all = new Set(['ana', 'ben', 'caro']);
  const none = new Map<string, number>();

  it('round-robin continues after the last one given one, skipping who is away or full', () => {
    expect(memberFor(team('round_robin'), all, none)).toBe('ana');
    expect(memberFor(team('round_robin', 'ana'), all, none)).toBe('ben');
    expect(memberFor(team('round_robin', 'caro'), all, none)).toBe('ana');
    expect(memberFor(team('round_robin', 'ana'), new Set(['ana', 'caro']), none)).toBe('caro');
    expect(memberFor(team('round_robin', 'ana', 2), all, new Map([['ben', 2]]))).toBe('caro');
  });

  it('least-busy takes who holds fewest, ties in turn', () => {
    expect(memberFor(team('least_busy'), all, new Map([['ana', 3], ['ben', 1], ['caro', 1]]))).toBe('ben');
    expect(memberFor(team('least_busy', 'ben'), all, new Map([['ana', 3], ['ben', 1], ['caro', 1]]))).toBe('caro');
  });

  it('gives nothing when nobody can take it, on a manual team, or only to someone else on reassignment', () => {
    expect(memberFor(team('round_robin', null, 1), all, new Map([['ana', 1], ['ben', 1], ['caro', 1]]))).toBeNull();
    expect(memberFor(team('round_robin'), new Set(), none)).toBeNull();
    expect(memberFor(team('manual'), all, none)).toBeNull();
    expect(memberFor(team('round_robin'), new Set(['ana']), none, 'ana')).toBeNull();
  });
});
