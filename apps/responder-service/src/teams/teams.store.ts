import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PresenceRecord, PresenceStatus, RoutingRuleRecord, TeamRecord } from '@parley/contracts';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';

/** A `teams` row as raw SQL returns it: the record's stored fields, round-robin's turn, and its times as dates. */
export type TeamRow = Omit<TeamRecord, 'open_now' | 'next_opening_at' | 'created_at' | 'updated_at'> & {
  last_assigned: string | null;
  created_at: Date;
  updated_at: Date;
};

/** What a team is written with (all of it on create; what changes on update). */
export type TeamFields = Omit<TeamRow, 'id' | 'last_assigned' | 'created_at' | 'updated_at'>;

const COLUMNS =
  'id, name, members, routing, capacity_per_member, reassign_after_seconds, timezone, business_hours, holidays, closed_message, sla, last_assigned, created_at, updated_at';
const WRITABLE = ['name', 'members', 'routing', 'capacity_per_member', 'reassign_after_seconds', 'timezone', 'business_hours', 'holidays', 'closed_message', 'sla'] as const;
const JSON_COLUMNS = new Set(['business_hours', 'sla']);

/** The team name is taken by another of the tenant's teams. */
export class TeamNameTakenError extends Error {}

/** How long a dashboard's last sign of life keeps its member available. */
export const PRESENCE_TTL_SECONDS = 60;

/** Teams, the routing rules and members' presence in SQL; every statement is scoped by tenant. */
@Injectable()
export class TeamsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(tenantId: string, id: string, team: TeamFields): Promise<TeamRow> {
    const params: unknown[] = [id, tenantId, ...WRITABLE.map((column) => valueOf(column, team[column]))];
    const [row]: TeamRow[] = await this.unique(() =>
      this.db.query(
        `INSERT INTO teams (id, tenant_id, ${WRITABLE.join(', ')}) VALUES ($1, $2, ${WRITABLE.map((c, i) => `$${i + 3}${JSON_COLUMNS.has(c) ? '::jsonb' : ''}`).join(', ')})
         RETURNING ${COLUMNS}`,
        params,
      ),
    );
    return row;
  }

  /** The tenant's teams, oldest first (the oldest is the default team); in the caller's transaction when given one. */
  list(tenantId: string, tx: EntityManager = this.db.manager): Promise<TeamRow[]> {
    return tx.query(`SELECT ${COLUMNS} FROM teams WHERE tenant_id = $1 ORDER BY created_at, id`, [tenantId]);
  }

  async find(tenantId: string, id: string): Promise<TeamRow | null> {
    const [row]: TeamRow[] = await this.db.query(`SELECT ${COLUMNS} FROM teams WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return row ?? null;
  }

  /** Only the fields given change; null when the tenant has no such team. */
  async update(tenantId: string, id: string, change: Partial<TeamFields>): Promise<TeamRow | null> {
    const params: unknown[] = [tenantId, id];
    const sets = WRITABLE.filter((column) => change[column] !== undefined).map(
      (column) => `${column} = $${params.push(valueOf(column, change[column]))}${JSON_COLUMNS.has(column) ? '::jsonb' : ''}`,
    );
    const [rows]: [TeamRow[]] = await this.unique(() =>
      this.db.query(`UPDATE teams SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`, params),
    );
    return rows[0] ?? null;
  }

  /** Deletes the team and its routing rules; its conversations keep their assignee and leave the team. */
  delete(tenantId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [, deleted]: [unknown, number] = await tx.query(`DELETE FROM teams WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
      if (deleted === 0) return false;
      await tx.query(`UPDATE conversations SET team_id = NULL WHERE tenant_id = $1 AND team_id = $2`, [tenantId, id]);
      return true;
    });
  }

  /** Which of `ids` are the tenant's teams. */
  async existing(tenantId: string, ids: string[]): Promise<Set<string>> {
    const rows: { id: string }[] = await this.db.query(`SELECT id FROM teams WHERE tenant_id = $1 AND id = ANY($2::text[])`, [tenantId, ids]);
    return new Set(rows.map((r) => r.id));
  }

  /** The rules in order; in the caller's transaction when given one. */
  async rules(tenantId: string, tx: EntityManager = this.db.manager): Promise<RoutingRuleRecord[]> {
    const rows: RoutingRuleRecord[] = await tx.query(`SELECT match, team_id FROM routing_rules WHERE tenant_id = $1 ORDER BY position`, [tenantId]);
    return rows.map((r) => ({ match: r.match, team_id: r.team_id }));
  }

  /** Replaces the tenant's rules with `rules`, in that order, in one transaction. */
  async replaceRules(tenantId: string, rules: RoutingRuleRecord[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM routing_rules WHERE tenant_id = $1`, [tenantId]);
      if (rules.length === 0) return;
      await tx.query(
        `INSERT INTO routing_rules (tenant_id, position, match, team_id)
         SELECT $1, ordinality, m::jsonb, t FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS r(m, t, ordinality)`,
        [tenantId, rules.map((r) => JSON.stringify(r.match)), rules.map((r) => r.team_id)],
      );
    });
  }

  /** Sets a member's switch; their last sign of life stays. */
  async setPresence(tenantId: string, memberId: string, status: PresenceStatus): Promise<PresenceRecord> {
    const [row]: PresenceRow[] = await this.db.query(
      `INSERT INTO member_presence (tenant_id, member_id, status) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, member_id) DO UPDATE SET status = EXCLUDED.status
       RETURNING ${PRESENCE_COLUMNS}`,
      [tenantId, memberId, status],
    );
    return toPresence(row);
  }

  /** A dashboard of the member holds the events stream open now. */
  async seen(tenantId: string, memberId: string): Promise<PresenceRecord> {
    const [row]: PresenceRow[] = await this.db.query(
      `INSERT INTO member_presence (tenant_id, member_id, seen_at) VALUES ($1, $2, now())
       ON CONFLICT (tenant_id, member_id) DO UPDATE SET seen_at = now()
       RETURNING ${PRESENCE_COLUMNS}`,
      [tenantId, memberId],
    );
    return toPresence(row);
  }

  async presence(tenantId: string): Promise<PresenceRecord[]> {
    const rows: PresenceRow[] = await this.db.query(`SELECT ${PRESENCE_COLUMNS} FROM member_presence WHERE tenant_id = $1 ORDER BY member_id`, [tenantId]);
    return rows.map(toPresence);
  }

  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      const constraint = err instanceof QueryFailedError ? (err.driverError as { constraint?: string }).constraint : undefined;
      if (constraint === 'teams_name') throw new TeamNameTakenError();
      throw err;
    }
  }
}

interface PresenceRow {
  member_id: string;
  status: PresenceStatus;
  seen_at: Date | null;
  available: boolean;
}

const PRESENCE_COLUMNS = `member_id, status, seen_at, status = 'online' AND seen_at > now() - interval '${PRESENCE_TTL_SECONDS} seconds' AS available`;

function toPresence(row: PresenceRow): PresenceRecord {
  return { member_id: row.member_id, status: row.status, available: row.available, seen_at: row.seen_at ? row.seen_at.toISOString() : null };
}

function valueOf(column: (typeof WRITABLE)[number], value: unknown): unknown {
  return JSON_COLUMNS.has(column) && value !== null && value !== undefined ? JSON.stringify(value) : value;
}
