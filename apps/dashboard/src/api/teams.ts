import type { ParleyClient, components } from '@parley/api-client';
import { unwrap } from './http';

// Team operations (CONTRACT.md §18): teams with their routing, hours and SLA targets, the routing rules that pick a team
// for a handoff, and members' presence (the "away" switch).

type Schemas = components['schemas'];
export type Team = Schemas['Team'];
export type TeamRouting = Team['routing'];
export const TEAM_ROUTINGS: readonly TeamRouting[] = ['round_robin', 'least_busy', 'manual'];
/** Periods per weekday (`{"mon": [["09:00","17:00"]]}`); a day left out is closed. */
export type BusinessHours = Schemas['CreateTeamBody']['business_hours'];
export type TeamSla = NonNullable<Team['sla']>;
export type RoutingRule = Schemas['RoutingRule'];
export type RoutingMatch = RoutingRule['match'];
export type Presence = Schemas['Presence'];
export type PresenceStatus = Presence['status'];

/**
 * A new team. The generated body types `members` and `holidays` as `unknown[]` (their items are validated by pattern):
 * here they are the strings they are (member ids, `YYYY-MM-DD` dates).
 */
export type NewTeam = Omit<Schemas['CreateTeamBody'], 'tenant_id' | 'members' | 'holidays'> & { members: string[]; holidays?: string[] };

/** The optional settings a change may clear with null (CONTRACT.md §18; the OpenAPI document does not say null). */
type Clearable = 'capacity_per_member' | 'reassign_after_seconds' | 'closed_message' | 'sla';
type UpdateTeamBody = Schemas['UpdateTeamBody'];
/** A change of a team: only the fields given change; null clears a clearable one. */
export type TeamChange = Omit<UpdateTeamBody, 'tenant_id' | 'members' | 'holidays' | Clearable> & { members?: string[]; holidays?: string[] } & {
  [K in Clearable]?: UpdateTeamBody[K] | null;
};

export function createTeamsApi(api: ParleyClient) {
  return {
    /** Oldest first: the first is the default team (handoffs no routing rule matches go to it). */
    listTeams: () => unwrap(api.GET('/api/v1/teams')),
    createTeam: (body: NewTeam) => unwrap(api.POST('/api/v1/teams', { body })),
    // the route takes null to clear (see TeamChange); the generated body type lacks it
    updateTeam: (id: string, body: TeamChange) => unwrap(api.PATCH('/api/v1/teams/{id}', { params: { path: { id } }, body: body as UpdateTeamBody })),
    deleteTeam: (id: string) => unwrap(api.DELETE('/api/v1/teams/{id}', { params: { path: { id } } })),

    routingRules: () => unwrap(api.GET('/api/v1/routing-rules')),
    /** Replaces the whole ordered list (first match wins); a refusal names the rule's field (`[1].match.channel`). */
    saveRoutingRules: (rules: RoutingRule[]) => unwrap(api.POST('/api/v1/routing-rules', { body: rules })),

    /** Every member who set a presence or opened a dashboard (one never seen is not listed: `online` by default). */
    teamPresence: () => unwrap(api.GET('/api/v1/team/presence')),
    setMyPresence: (status: PresenceStatus) => unwrap(api.PUT('/api/v1/team/me/presence', { body: { status } })),
  };
}
