import type { ChannelKind, RoutingRuleRecord, TeamRouting } from '@parley/contracts';

/** What the rules look at in a handed-off conversation. */
export interface RoutingFacts {
  channel: ChannelKind;
  channelId: string;
  /** The skill that handed off, or `human` when the customer asked for a person. */
  skill: string | null;
  /** The customer's last message. */
  text: string | null;
  contactTags: string[];
}

/** The team a handoff goes to: the first rule whose every condition holds (an empty match holds always), else the default. */
export function teamFor(rules: RoutingRuleRecord[], facts: RoutingFacts, defaultTeam: string | null): string | null {
  return rules.find((rule) => matches(rule.match, facts))?.team_id ?? defaultTeam;
}

function matches(match: RoutingRuleRecord['match'], facts: RoutingFacts): boolean {
  if (match.channel !== undefined && match.channel !== facts.channel && match.channel !== facts.channelId) return false;
  if (match.skill !== undefined && match.skill !== facts.skill) return false;
  if (match.keyword !== undefined && !containsPhrase(facts.text ?? '', match.keyword)) return false;
  if (match.contact_tag !== undefined && !facts.contactTags.some((tag) => fold(tag) === fold(match.contact_tag!))) return false;
  return true;
}

/** A word or phrase in the text, as whole words, case and accents ignored ("Reembolso" finds "¿un reembolso?"). */
export function containsPhrase(text: string, phrase: string): boolean {
  const words = (s: string) => fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const haystack = words(text);
  const needle = words(phrase);
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, j) => haystack[i + j] === w)) return true;
  }
  return false;
}

function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A team as its routing sees it. */
export interface TeamRoster {
  members: string[];
  routing: TeamRouting;
  capacity: number | null;
  /** The member routing last gave a conversation to: round-robin continues after them. */
  lastAssigned: string | null;
}

/**
 * The member who gets the next conversation, among those available (online, dashboard open) and under capacity (open
 * conversations they hold), other than `not` (the one losing it on reassignment): round-robin takes the next after
 * the last one given one; least-busy the one holding fewest, ties in round-robin order. Null when nobody can take it,
 * and always for `manual` teams.
 */
export function memberFor(team: TeamRoster, available: ReadonlySet<string>, loads: ReadonlyMap<string, number>, not: string | null = null): string | null {
  if (team.routing === 'manual' || team.members.length === 0) return null;
  const start = team.lastAssigned ? team.members.indexOf(team.lastAssigned) + 1 : 0;
  const turn = team.members.map((_, i) => team.members[(start + i) % team.members.length]);
  const eligible = turn.filter((m) => m !== not && available.has(m) && (team.capacity === null || (loads.get(m) ?? 0) < team.capacity));
  if (eligible.length === 0) return null;
  if (team.routing === 'round_robin') return eligible[0];
  return eligible.reduce((best, m) => ((loads.get(m) ?? 0) < (loads.get(best) ?? 0) ? m : best));
}
