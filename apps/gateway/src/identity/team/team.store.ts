import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, type MemberRole } from '@parley/contracts';
import { DataSource, In, type EntityManager } from 'typeorm';
import { TenantEntity } from '../accounts/tenant.entity';
import type { InvitationContext } from './member-links';
import { MemberEntity } from './member.entity';

/** An invitation as its accept page shows it: the invitee, the business, and who invited (null once they left). */
export interface InvitationView {
  email: string;
  name: string;
  role: MemberRole;
  business: string;
  inviter: { name: string; email: string } | null;
}

export type NewMember = Pick<MemberEntity, 'email' | 'name' | 'role' | 'status' | 'passwordHash'> & { invitedBy?: string | null };

/**
 * A tenant's team members as stored. The tenant id is the first parameter of every method that reads a tenant's
 * members; methods that run inside the caller's unit of work (`transaction`, or sign-up's) take its `tx` last.
 */
@Injectable()
export class TeamStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** A new member (a unique violation when the email is a member of the tenant already). */
  insert(tenantId: string, member: NewMember, tx: EntityManager = this.db.manager): Promise<MemberEntity> {
    const repo = tx.getRepository(MemberEntity);
    return repo.save(repo.create({ id: newId('usr'), tenantId, invitedBy: null, ...member }));
  }

  /** Members newest first: up to `limit` with an id below `beforeId` (null: from the newest). */
  list(tenantId: string, limit: number, beforeId: string | null): Promise<MemberEntity[]> {
    const query = this.db.getRepository(MemberEntity).createQueryBuilder('m').where('m.tenant_id = :tenantId', { tenantId }).orderBy('m.id', 'DESC').take(limit);
    if (beforeId !== null) query.andWhere('m.id < :beforeId', { beforeId });
    return query.getMany();
  }

  find(tenantId: string, id: string, tx: EntityManager = this.db.manager): Promise<MemberEntity | null> {
    return tx.getRepository(MemberEntity).findOneBy({ id, tenantId });
  }

  /** Which of `ids` are the tenant's members, in one query. */
  async existing(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await this.db.getRepository(MemberEntity).find({ select: { id: true }, where: { tenantId, id: In([...ids]) } });
    return new Set(found.map((m) => m.id));
  }

  /**
   * Locks the tenant's row for the rest of `tx`: team changes of one tenant take turns, so two owners demoting each
   * other at once cannot leave the tenant without one.
   */
  async lockTeam(tenantId: string, tx: EntityManager): Promise<void> {
    await tx.getRepository(TenantEntity).createQueryBuilder('t').setLock('pessimistic_write').where('t.id = :tenantId', { tenantId }).getOne();
  }

  /** How many active owners the tenant has besides `exceptId`. */
  otherActiveOwners(tenantId: string, exceptId: string, tx: EntityManager): Promise<number> {
    return tx
      .getRepository(MemberEntity)
      .createQueryBuilder('m')
      .where("m.tenant_id = :tenantId AND m.role = 'owner' AND m.status = 'active' AND m.id <> :exceptId", { tenantId, exceptId })
      .getCount();
  }

  save(tenantId: string, member: MemberEntity, tx: EntityManager): Promise<MemberEntity> {
    if (member.tenantId !== tenantId) throw new Error(`member ${member.id} is not tenant ${tenantId}'s`);
    return tx.save(member);
  }

  async delete(tenantId: string, id: string, tx: EntityManager): Promise<void> {
    await tx.getRepository(MemberEntity).delete({ id, tenantId });
  }

  /** An invited member by id, whichever tenant (an invitation link names the member, not the tenant). */
  findInvited(memberId: string, tx: EntityManager = this.db.manager): Promise<MemberEntity | null> {
    return tx.getRepository(MemberEntity).findOneBy({ id: memberId, status: 'invited' });
  }

  /** What an invited member's accept page shows; null when the member is not (or no longer) invited. */
  async invitationView(memberId: string): Promise<InvitationView | null> {
    const [row] = (await this.db.query(
      `SELECT m.email, m.name, m.role, t.name AS business, i.name AS inviter_name, i.email AS inviter_email
         FROM members m JOIN tenants t ON t.id = m.tenant_id LEFT JOIN members i ON i.id = m.invited_by AND i.tenant_id = m.tenant_id
        WHERE m.id = $1 AND m.status = 'invited'`,
      [memberId],
    )) as { email: string; name: string; role: MemberRole; business: string; inviter_name: string | null; inviter_email: string | null }[];
    return row ? { email: row.email, name: row.name, role: row.role, business: row.business, inviter: inviterOf(row) } : null;
  }

  /** The business and the inviter an invitation mail names. */
  async invitationContext(tenantId: string, invitedBy: string | null, tx: EntityManager): Promise<InvitationContext> {
    const [row] = (await tx.query(
      `SELECT t.name AS business, i.name AS inviter_name, i.email AS inviter_email
         FROM tenants t LEFT JOIN members i ON i.id = $2 AND i.tenant_id = t.id
        WHERE t.id = $1`,
      [tenantId, invitedBy],
    )) as { business: string; inviter_name: string | null; inviter_email: string | null }[];
    return { business: row.business, inviter: inviterOf(row) };
  }
}

const inviterOf = (row: { inviter_name: string | null; inviter_email: string | null }) =>
  row.inviter_name !== null && row.inviter_email !== null ? { name: row.inviter_name, email: row.inviter_email } : null;
