import type { Member, Team, TeamRouting } from '../../api';
import { useLiveQuery } from '../../components/live-query';
import { useApi } from '../../session/session';

/** The query keys of team operations: the teams, and their routing rules below them (a deleted team takes its rules). */
export const TEAMS_KEY = ['teams'] as const;
export const ROUTING_RULES_KEY = ['teams', 'routing-rules'] as const;

/** The tenant's teams, oldest first (the first is the default team). Every role may read them. */
export function useTeams() {
  const api = useApi();
  return useLiveQuery(TEAMS_KEY, () => api.listTeams());
}

/** How a team shares its conversations, in words: a name and what it does. */
export const ROUTING_WORDS: Record<TeamRouting, { name: string; help: string }> = {
  round_robin: { name: 'Round robin', help: 'Each new conversation goes to the next available member, in turn.' },
  least_busy: { name: 'Least busy', help: 'Each new conversation goes to the available member with the fewest open conversations.' },
  manual: { name: 'Manual', help: 'Conversations wait in the team’s queue until a member takes one.' },
};

/** The browser's own time zone: where the business most likely is. */
export const BROWSER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const DAY_MS = 86_400_000;

/** A zone as people say it: "Europe/Madrid" → "Madrid", "America/New_York" → "New York". */
export const zoneCity = (zone: string) => (zone.split('/').pop() ?? zone).replace(/_/g, ' ');

/**
 * When a closed team opens next, in the team's time zone: "Mon 09:00" within the week, "Fri, Dec 25, 09:00" beyond
 * it; "(Madrid time)" after it when that is not the reader's zone.
 */
export function openingTime(iso: string, timeZone: string, now = Date.now()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const withinWeek = date.getTime() - now < 6 * DAY_MS;
  const options: Intl.DateTimeFormatOptions = { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(withinWeek ? {} : { month: 'short', day: 'numeric' }) };
  try {
    const text = new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(date);
    return timeZone === BROWSER_TIME_ZONE ? text : `${text} (${zoneCity(timeZone)} time)`;
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(date);
  }
}

/** "Open now", "Closed · opens Mon 09:00", or "Closed" (no business hours at all). */
export function openingText(team: Pick<Team, 'open_now' | 'next_opening_at' | 'timezone'>, now = Date.now()): string {
  if (team.open_now) return 'Open now';
  return team.next_opening_at ? `Closed · opens ${openingTime(team.next_opening_at, team.timezone, now)}` : 'Closed';
}

/** A team's members by name ("you" for the reader), in the team's order; someone no longer in the team said so. */
export function memberNames(ids: readonly string[], people: readonly Member[], meId: string | undefined): string[] {
  return ids.map((id) => (id === meId ? 'you' : (people.find((p) => p.id === id)?.name ?? 'someone no longer in the team')));
}

/** "Ada, Kari and you"; "nobody yet". */
export function listInWords(names: readonly string[]): string {
  if (names.length === 0) return 'nobody yet';
  if (names.length === 1) return names[0];
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** A team's name by id, for a conversation: undefined without a team, "a deleted team" for one gone. */
export function teamName(id: string | null | undefined, teams: readonly Team[] | undefined): string | undefined {
  if (!id) return undefined;
  return teams?.find((t) => t.id === id)?.name ?? (teams ? 'a deleted team' : undefined);
}
