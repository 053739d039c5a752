import { Injectable } from '@nestjs/common';
import { ProblemTypes, notFoundProblem, problem, validationProblem, type InvitationRecord, type InvitedMember, type MemberRecord, type MemberRole, type Page } from '@parley/contracts';
import { ListCursors, ProblemException, redactSecretShapes } from '@parley/service-kit';
import { QueryFailedError, type EntityManager } from 'typeorm';
import { can, permissionRefused } from '../auth/permissions';
import { GatewayConfig } from '../../config/gateway.config';
import type { SignedInMember } from '../../http/request-context';
import { normaliseEmail } from '../sign-in/login-throttle';
import { hashPassword } from '../sign-in/passwords';
import { MemberLinks } from './member-links';
import { MemberTokensStore } from './member-tokens.store';
import type { MemberEntity } from './member.entity';
import { TeamStore } from './team.store';
import { toMemberRecord } from './team.mapper';

/** Where the dashboard takes an invitation link (the page sets the password with `POST /api/v1/team/accept`). */
export const ACCEPT_INVITE_PATH = '/dashboard/accept-invite';

const isUniqueViolation = (err: unknown) => err instanceof QueryFailedError && (err.driverError as { code?: string } | undefined)?.code === '23505';


/**
 * A tenant's team (CONTRACT.md §12): invitations, roles, removal. The rules beyond the route's permission: only a
 * member who may manage owners (an owner) invites, changes or removes an owner, or makes anyone one; the last active owner can be neither demoted nor removed;
 * an email is a member of a tenant once. `actor` is null for a program (API key, client token): full access.
 */
@Injectable()
export class TeamService {
  constructor(
    private readonly members: TeamStore,
    private readonly tokens: MemberTokensStore,
    private readonly links: MemberLinks,
    private readonly cursors: ListCursors,
    private readonly config: GatewayConfig,
  ) {}

  /** The account's creator, signed up with a password (inside sign-up's transaction). */
  async createOwnerIn(manager: EntityManager, tenantId: string, owner: { email: string; name: string; password: string }): Promise<MemberEntity> {
    const passwordHash = await hashPassword(owner.password, this.config.PASSWORD_SCRYPT_LOG_N);
    return this.members.insert(tenantId, { email: normaliseEmail(owner.email), name: owner.name, role: 'owner', status: 'active', passwordHash }, manager);
  }

  async invite(tenantId: string, actor: SignedInMember | null, body: { email: string; name: string; role: MemberRole }, linkBase: string): Promise<InvitedMember> {
    if (body.role === 'owner') mayManageOwners(actor);
    const email = normaliseEmail(body.email);
    let invited: InvitedMember;
    try {
      invited = await this.members.transaction(async (tx) => {
        const member = await this.members.insert(tenantId, { email, name: body.name, role: body.role, status: 'invited', passwordHash: null, invitedBy: actor?.id ?? null }, tx);
        return { ...toMemberRecord(member), invite_url: await this.sendInvitation(tx, member, linkBase) };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `${email} is already a member of this team (or invited).`, [{ field: 'email', message: 'email is already a member of this team' }]));
      }
      throw err;
    }
    this.links.wake();
    return invited;
  }

  /**
   * Sends an invitation again (a new link and a new mail; the earlier link stops working), for an invitation whose mail
   * went astray or whose link expired. Refused (409) once the member has accepted.
   */
  async reinvite(tenantId: string, actor: SignedInMember | null, id: string, linkBase: string): Promise<InvitedMember> {
    const invited = await this.members.transaction(async (tx) => {
      const member = await this.lockedMember(tx, tenantId, id);
      if (member.role === 'owner') mayManageOwners(actor);
      if (member.status !== 'invited') {
        throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `${member.email} has accepted the invitation already; they sign in (or reset their password).`));
      }
      return { ...toMemberRecord(member), invite_url: await this.sendInvitation(tx, member, linkBase) };
    });
    this.links.wake();
    return invited;
  }

  /**
   * What the accept page shows for an invitation link (issue 32): the business, who invited, the invitee and the role,
   * and until when the link works. The token is looked at, not used. Unknown, used or expired → 400 naming `token`.
   */
  async invitation(token: string): Promise<InvitationRecord> {
    const found = await this.tokens.peek(token, 'invite');
    const view = found ? await this.members.invitationView(found.memberId) : null;
    if (!found || !view) throw invalidInvitation();
    return {
      email: view.email,
      name: view.name,
      role: view.role,
      business: { name: view.business },
      invited_by: view.inviter,
      expires_at: found.expiresAt.toISOString(),
    };
  }

  /** A new invitation link for the member, its mail queued in `tx` (MemberLinks); answers the link. */
  private async sendInvitation(tx: EntityManager, member: MemberEntity, linkBase: string): Promise<string> {
    const { token, expiresAt } = await this.tokens.issue(tx, member.id, 'invite', this.config.INVITE_TTL_SECONDS);
    const inviteUrl = `${linkBase}${ACCEPT_INVITE_PATH}?token=${token}`;
    const context = await this.members.invitationContext(member.tenantId, member.invitedBy, tx);
    await this.links.invitation(tx, member, inviteUrl, expiresAt, context);
    return inviteUrl;
  }

  /** Sets the invited member's password and makes them active; the token is used up. */
  async accept(token: string, password: string): Promise<MemberRecord> {
    return this.members.transaction(async (tx) => {
      const memberId = await this.tokens.consume(tx, token, 'invite');
      const member = memberId ? await this.members.findInvited(memberId, tx) : null;
      if (!member) throw invalidInvitation();
      member.passwordHash = await hashPassword(password, this.config.PASSWORD_SCRYPT_LOG_N);
      member.status = 'active';
      return toMemberRecord(await this.members.save(member.tenantId, member, tx));
    });
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<MemberRecord>> {
    const cursors = this.cursors.of(tenantId, 'team');
    const rows = await this.members.list(tenantId, limit + 1, cursors.after(cursor));
    return { data: rows.slice(0, limit).map(toMemberRecord), next_cursor: cursors.next(rows, limit, (row) => row.id) };
  }

  /**
   * Refuses (400) member ids the tenant does not have where another feature names members (an assignee, a team's
   * members, a note's mentions), naming the field each sits in: the gateway owns the team of people.
   */
  async checkMembers(tenantId: string, named: readonly { field: string; id: string; message: string }[]): Promise<void> {
    const known = await this.members.existing(tenantId, [...new Set(named.map((n) => n.id))]);
    const errors = named.filter((n) => !known.has(n.id)).map(({ field, message }) => ({ field, message }));
    if (errors.length > 0) throw new ProblemException(validationProblem(errors));
  }

  async get(tenantId: string, id: string): Promise<MemberRecord> {
    const member = await this.members.find(tenantId, id);
    if (!member) throw notFound(id);
    return toMemberRecord(member);
  }

  async changeRole(tenantId: string, actor: SignedInMember | null, id: string, role: MemberRole): Promise<MemberRecord> {
    return this.members.transaction(async (tx) => {
      const member = await this.lockedMember(tx, tenantId, id);
      if (member.role === 'owner' || role === 'owner') mayManageOwners(actor);
      if (member.role === 'owner' && role !== 'owner') await this.keepAnOwner(tx, member, 'demoted');
      member.role = role;
      return toMemberRecord(await this.members.save(tenantId, member, tx));
    });
  }

  /** Removes a member (or withdraws an invitation); their sessions end with them. */
  async remove(tenantId: string, actor: SignedInMember | null, id: string): Promise<void> {
    await this.members.transaction(async (tx) => {
      const member = await this.lockedMember(tx, tenantId, id);
      if (member.role === 'owner') mayManageOwners(actor);
      if (member.role === 'owner') await this.keepAnOwner(tx, member, 'removed');
      await this.members.delete(tenantId, member.id, tx);
    });
  }

  /**
   * The member, with the tenant's row locked for the transaction: team changes of one tenant take turns, so two
   * owners demoting each other at once cannot leave the tenant without one.
   */
  private async lockedMember(tx: EntityManager, tenantId: string, id: string): Promise<MemberEntity> {
    await this.members.lockTeam(tenantId, tx);
    const member = await this.members.find(tenantId, id, tx);
    if (!member) throw notFound(id);
    return member;
  }

  private async keepAnOwner(tx: EntityManager, owner: MemberEntity, change: string): Promise<void> {
    if (owner.status !== 'active') return;
    const others = await this.members.otherActiveOwners(owner.tenantId, owner.id, tx);
    if (others === 0) {
      throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `The last owner cannot be ${change}; make another member an owner first.`));
    }
  }
}

/** Owners are managed by owners only (and by programs, which act for the whole tenant). */
function mayManageOwners(actor: SignedInMember | null): void {
  if (actor && !can(actor, 'team.manage_owners')) throw permissionRefused(actor.role, 'team.manage_owners');
}

function invalidInvitation(): ProblemException {
  return new ProblemException(validationProblem([{ field: 'token', message: 'token is not a valid invitation: it is unknown, used or expired' }], 'The invitation cannot be accepted.'));
}

function notFound(id: string): ProblemException {
  return new ProblemException(notFoundProblem(`Team member "${redactSecretShapes(id).slice(0, 100)}"`));
}
