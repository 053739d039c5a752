import { Injectable } from '@nestjs/common';
import {
  CreateTeamBody,
  ProblemTypes,
  RoutingRuleDto,
  UpdateTeamBody,
  hasPrefix,
  newId,
  notFoundProblem,
  problem,
  validationProblem,
  type FieldError,
  type PresenceRecord,
  type PresenceStatus,
  type RoutingRuleRecord,
  type TeamRecord,
} from '@parley/contracts';
import { ProblemException, validateDto } from '@parley/service-kit';
import { isOpen, nextOpening } from './business-hours';
import { RoutingWorker } from './routing.worker';
import { TeamNameTakenError, TeamsStore, type TeamFields, type TeamRow } from './teams.store';

/** Rules a tenant keeps, at most: the first match wins, so a long list is a sign of a wrong tool. */
const MAX_RULES = 100;

/**
 * Teams, routing rules and presence (CONTRACT.md §18). Anything that may let a waiting conversation be handed out (a
 * member added, more capacity, a member back online, new rules) wakes routing in this instance; others find it at
 * their sweep.
 */
@Injectable()
export class TeamsService {
  constructor(
    private readonly store: TeamsStore,
    private readonly routing: RoutingWorker,
  ) {}

  async create(tenantId: string, rawBody: unknown): Promise<TeamRecord> {
    const body = await validateDto(CreateTeamBody, rawBody);
    const fields: TeamFields = {
      name: body.name,
      members: body.members,
      routing: body.routing,
      capacity_per_member: body.capacity_per_member ?? null,
      reassign_after_seconds: body.reassign_after_seconds ?? null,
      timezone: body.timezone,
      business_hours: body.business_hours,
      holidays: body.holidays ?? [],
      closed_message: body.closed_message ?? null,
      sla: slaOf(body.sla),
    };
    const row = await this.named(body.name, () => this.store.insert(tenantId, newId('tea'), fields));
    this.routing.wake();
    return toRecord(row);
  }

  async list(tenantId: string): Promise<{ data: TeamRecord[]; next_cursor: null }> {
    return { data: (await this.store.list(tenantId)).map((row) => toRecord(row)), next_cursor: null };
  }

  async get(tenantId: string, id: string): Promise<TeamRecord> {
    return toRecord(await this.found(tenantId, id));
  }

  async update(tenantId: string, id: string, rawBody: unknown): Promise<TeamRecord> {
    const body = await validateDto(UpdateTeamBody, rawBody);
    const { tenant_id: _tenant, sla, ...rest } = body;
    const change: Partial<TeamFields> = { ...rest };
    if (sla !== undefined) change.sla = slaOf(sla);
    if (Object.keys(change).length === 0) throw new ProblemException(validationProblem([{ field: 'name', message: 'give at least one field to change' }]));
    const row = hasPrefix(id, 'tea') ? await this.named(body.name, () => this.store.update(tenantId, id, change)) : null;
    if (!row) throw new ProblemException(notFoundProblem(`Team "${id}"`));
    this.routing.wake();
    return toRecord(row);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    const deleted = hasPrefix(id, 'tea') && (await this.store.delete(tenantId, id));
    if (!deleted) throw new ProblemException(notFoundProblem(`Team "${id}"`));
  }

  async rules(tenantId: string): Promise<{ data: RoutingRuleRecord[] }> {
    return { data: await this.store.rules(tenantId) };
  }

  /** Replaces the ordered rules; each names the field it breaks as `[i].match.channel`, and a team the tenant lacks as `[i].team_id`. */
  async replaceRules(tenantId: string, rawBody: unknown): Promise<{ data: RoutingRuleRecord[] }> {
    if (!Array.isArray(rawBody) || rawBody.length > MAX_RULES) {
      throw new ProblemException(validationProblem([{ field: 'body', message: `must be a list of at most ${MAX_RULES} rules [{match, team_id}], first match wins` }]));
    }
    const rules: (RoutingRuleRecord & { index: number })[] = [];
    const errors: FieldError[] = [];
    for (const [i, raw] of rawBody.entries()) {
      try {
        const rule = await validateDto(RoutingRuleDto, raw);
        rules.push({ match: definedOnly(rule.match), team_id: rule.team_id, index: i });
      } catch (err) {
        if (!(err instanceof ProblemException)) throw err;
        errors.push(...(err.problem.errors ?? [{ field: 'body', message: err.problem.detail }]).map((e) => ({ field: `[${i}].${e.field}`, message: e.message })));
      }
    }
    const teams = await this.store.existing(tenantId, rules.map((r) => r.team_id));
    for (const rule of rules) {
      if (!teams.has(rule.team_id)) errors.push({ field: `[${rule.index}].team_id`, message: `team_id "${rule.team_id}" is not one of your teams` });
    }
    if (errors.length > 0) throw new ProblemException(validationProblem(errors.sort((a, b) => a.field.localeCompare(b.field))));
    const kept = rules.map(({ match, team_id }) => ({ match, team_id }));
    await this.store.replaceRules(tenantId, kept);
    this.routing.wake();
    return { data: kept };
  }

  async setPresence(tenantId: string, memberId: string, status: PresenceStatus): Promise<PresenceRecord> {
    const presence = await this.store.setPresence(tenantId, memberId, status);
    if (presence.available) this.routing.wake();
    return presence;
  }

  async seen(tenantId: string, memberId: string): Promise<PresenceRecord> {
    const presence = await this.store.seen(tenantId, memberId);
    if (presence.available) this.routing.wake();
    return presence;
  }

  async presence(tenantId: string): Promise<{ data: PresenceRecord[] }> {
    return { data: await this.store.presence(tenantId) };
  }

  private async found(tenantId: string, id: string): Promise<TeamRow> {
    const row = hasPrefix(id, 'tea') ? await this.store.find(tenantId, id) : null;
    if (!row) throw new ProblemException(notFoundProblem(`Team "${id}"`));
    return row;
  }

  /** A team name is the tenant's once: a second one is a conflict (409). */
  private async named<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof TeamNameTakenError)) throw err;
      throw new ProblemException(
        problem(409, ProblemTypes.conflict, 'Team Name Taken', `Another team is already called "${name}"; choose another name.`, [
          { field: 'name', message: `name "${name}" is already used by another team` },
        ]),
      );
    }
  }
}

/** The team as the API shows it, with whether it is open at `now`. */
export function toRecord(row: TeamRow, now = new Date()): TeamRecord {
  const opensAt = nextOpening(row, now);
  return {
    id: row.id,
    name: row.name,
    members: row.members,
    routing: row.routing,
    capacity_per_member: row.capacity_per_member,
    reassign_after_seconds: row.reassign_after_seconds,
    timezone: row.timezone,
    business_hours: row.business_hours,
    holidays: row.holidays,
    closed_message: row.closed_message,
    sla: row.sla,
    open_now: isOpen(row, now),
    next_opening_at: opensAt ? opensAt.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** An SLA with no target is none. */
function slaOf(sla: { first_response_seconds?: number; resolution_seconds?: number } | null | undefined): TeamRow['sla'] {
  if (!sla) return null;
  const kept = definedOnly({ first_response_seconds: sla.first_response_seconds, resolution_seconds: sla.resolution_seconds });
  return Object.keys(kept).length > 0 ? kept : null;
}

/** The object without its undefined fields (class-transformer leaves them as own properties). */
function definedOnly<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
