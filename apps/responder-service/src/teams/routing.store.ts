import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not, type EntityManager } from 'typeorm';
import { ConversationEntity } from '../conversations/conversation.entity';
import { PRESENCE_TTL_SECONDS } from './teams.store';

/** Waiting conversations a tenant's routing pass looks at, at most: the oldest first; the rest at the next pass. */
const QUEUE_BATCH = 100;

/**
 * What routing reads and writes: the queue of handed-off conversations nobody holds, the assignments whose reassign
 * time ran out, and the facts a decision needs beside the teams and rules (TeamsStore's): who is available, how many
 * conversations each holds. The tenant id first; methods taking a transaction run in the caller's, which holds the
 * tenant's routing lock.
 */
@Injectable()
export class RoutingStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Tenants with routing to do: a conversation waiting in a queue, or an assignment past its team's reassign time
   * with no reply from its assignee since. Partial indexes keep this cheap when there is nothing.
   */
  async tenantsWithWork(): Promise<string[]> {
    const rows: { tenant_id: string }[] = await this.db.query(
      `SELECT tenant_id FROM conversations WHERE queued_at IS NOT NULL AND state = 'handed_off' AND assignee IS NULL
       UNION
       SELECT c.tenant_id FROM conversations c JOIN teams t ON t.id = c.team_id AND t.tenant_id = c.tenant_id
        WHERE c.assigned_at IS NOT NULL AND c.state = 'handed_off' AND t.reassign_after_seconds IS NOT NULL
          AND c.assigned_at + make_interval(secs => t.reassign_after_seconds) <= now()
          AND (c.member_replied_at IS NULL OR c.member_replied_at < c.assigned_at)
       UNION
       SELECT tenant_id FROM conversations WHERE sla_check_at <= now()`,
    );
    return rows.map((r) => r.tenant_id);
  }

  /** Only one instance routes a tenant at a time (round-robin's turn and members' capacity are the tenant's): false when another does. */
  async lockTenant(tenantId: string, tx: EntityManager): Promise<boolean> {
    const [row]: { locked: boolean }[] = await tx.query(`SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked`, [`routing:${tenantId}`]);
    return row.locked;
  }

  /** Members switched `online` with a dashboard open in the last minute. */
  async availableMembers(tenantId: string, tx: EntityManager): Promise<Set<string>> {
    const rows: { member_id: string }[] = await tx.query(
      `SELECT member_id FROM member_presence WHERE tenant_id = $1 AND status = 'online' AND seen_at > now() - make_interval(secs => $2)`,
      [tenantId, PRESENCE_TTL_SECONDS],
    );
    return new Set(rows.map((r) => r.member_id));
  }

  /** Open (handed-off) conversations each member holds. */
  async loads(tenantId: string, tx: EntityManager): Promise<Map<string, number>> {
    const rows: { assignee: string; open: number }[] = await tx.query(
      `SELECT assignee, count(*)::int AS open FROM conversations WHERE tenant_id = $1 AND state = 'handed_off' AND assignee IS NOT NULL GROUP BY assignee`,
      [tenantId],
    );
    return new Map(rows.map((r) => [r.assignee, r.open]));
  }

  /** The tenant's waiting conversations, oldest first, as read without their locks (routing decides under them). */
  queue(tenantId: string, tx: EntityManager): Promise<ConversationEntity[]> {
    return tx.getRepository(ConversationEntity).find({
      where: { tenantId, state: 'handed_off', assignee: IsNull(), queuedAt: Not(IsNull()) },
      order: { queuedAt: 'ASC', id: 'ASC' },
      take: QUEUE_BATCH,
    });
  }

  /** The ids of the tenant's routed assignments past their team's reassign time, with no reply from the assignee since. */
  async dueReassignments(tenantId: string, tx: EntityManager): Promise<string[]> {
    const rows: { id: string }[] = await tx.query(
      `SELECT c.id FROM conversations c JOIN teams t ON t.id = c.team_id AND t.tenant_id = c.tenant_id
        WHERE c.tenant_id = $1 AND c.assigned_at IS NOT NULL AND c.state = 'handed_off' AND t.reassign_after_seconds IS NOT NULL
          AND c.assigned_at + make_interval(secs => t.reassign_after_seconds) <= now()
          AND (c.member_replied_at IS NULL OR c.member_replied_at < c.assigned_at)
        ORDER BY c.assigned_at LIMIT ${QUEUE_BATCH}`,
      [tenantId],
    );
    return rows.map((r) => r.id);
  }

  /** The ids of the tenant's conversations with an SLA due time reached. */
  async dueSlaChecks(tenantId: string, tx: EntityManager): Promise<string[]> {
    const rows: { id: string }[] = await tx.query(`SELECT id FROM conversations WHERE tenant_id = $1 AND sla_check_at <= now() ORDER BY sla_check_at LIMIT ${QUEUE_BATCH}`, [tenantId]);
    return rows.map((r) => r.id);
  }

  /** The contact's tags (crm-service's, kept per address by ContactNamesStore). */
  async contactTags(tenantId: string, customer: string, tx: EntityManager): Promise<string[]> {
    const [row]: { tags: string[] }[] = await tx.query(`SELECT tags FROM contact_names WHERE tenant_id = $1 AND customer = $2`, [tenantId, customer]);
    return row?.tags ?? [];
  }

  /** The conversation as it is now (the caller holds its lock). */
  find(tenantId: string, id: string, tx: EntityManager): Promise<ConversationEntity | null> {
    return tx.getRepository(ConversationEntity).findOne({ where: { id, tenantId } });
  }

  async update(tenantId: string, id: string, changes: Partial<ConversationEntity>, tx: EntityManager): Promise<void> {
    await tx.getRepository(ConversationEntity).update({ id, tenantId }, changes);
  }

  /** Round-robin continues after this member. */
  async lastAssigned(tenantId: string, teamId: string, memberId: string, tx: EntityManager): Promise<void> {
    await tx.query(`UPDATE teams SET last_assigned = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, teamId, memberId]);
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
