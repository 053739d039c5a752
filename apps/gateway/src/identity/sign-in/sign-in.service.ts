import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ProblemTypes, problem, validationProblem, type IssuedToken } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { TenantEntity } from '../accounts/tenant.entity';
import { TokenService } from '../auth/token.service';
import { GatewayConfig } from '../../config/gateway.config';
import { MemberLinks } from '../team/member-links';
import { MemberTokensStore } from '../team/member-tokens.store';
import { MemberEntity } from '../team/member.entity';
import { LoginThrottle, normaliseEmail } from './login-throttle';
import { DecoyPassword, hashPassword, verifyPassword } from './passwords';
import { SessionsService, type StartedSession } from './sessions.service';

/** Where the dashboard takes a password-reset link (the page calls `POST /auth/password-reset/confirm`). */
export const RESET_PASSWORD_PATH = '/dashboard/reset-password';

/** An email that is a member of more tenants than this signs in with `tenant_id`. */
const MAX_MEMBERSHIPS_TRIED = 5;

export interface SignedIn {
  token: IssuedToken;
  session: StartedSession;
}

/**
 * Signing in and out and resetting a password (CONTRACT.md §12).
 *
 * One email may belong to several tenants' teams. Sign-in with `tenant_id` picks that tenant's membership; without
 * it, the password is tried against the email's active memberships, most recently joined first, and the first that
 * matches signs in. A person with the same password in two teams thus lands in the newest and names `tenant_id` for
 * the other.
 */
@Injectable()
export class SignInService {
  private readonly decoy: DecoyPassword;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionsService,
    private readonly tokens: TokenService,
    private readonly memberTokens: MemberTokensStore,
    private readonly links: MemberLinks,
    private readonly throttle: LoginThrottle,
    private readonly config: GatewayConfig,
  ) {
    this.decoy = new DecoyPassword(config.PASSWORD_SCRYPT_LOG_N);
  }

  async login(email: string, password: string, tenantId: string | undefined): Promise<SignedIn> {
    const standing = await this.throttle.standing(email);
    if (standing.locked) {
      throw new ProblemException(
        problem(429, ProblemTypes.rateLimited, 'Too Many Requests', `Too many failed sign-ins for this email; retry in ${standing.retryAfter} s, or reset the password.`),
        { 'retry-after': String(standing.retryAfter) },
      );
    }
    const member = await this.matchingMember(email, password, tenantId);
    if (!member) {
      await this.throttle.failed(email);
      throw new ProblemException(problem(401, ProblemTypes.unauthorized, 'Unauthorized', 'The email or the password is wrong.'));
    }
    await this.throttle.succeeded(email);
    const session = await this.sessions.start(member.tenantId, member.id);
    return { session, token: await this.tokens.issueForMember(member.tenantId, member.id, session.id) };
  }

  /**
   * Mails a reset link for each active membership of the email (MemberLinks; in development also logged). The answer
   * is the same whether or not the email has any (no account enumeration). Each link and its mail are queued together.
   */
  async requestReset(email: string, linkBase: string): Promise<void> {
    const members = await this.db.getRepository(MemberEntity).find({
      where: { email: normaliseEmail(email), status: 'active' },
      order: { createdAt: 'DESC' },
      take: MAX_MEMBERSHIPS_TRIED,
    });
    for (const member of members) {
      await this.db.transaction(async (tx) => {
        const { token, expiresAt } = await this.memberTokens.issue(tx, member.id, 'password_reset', this.config.PASSWORD_RESET_TTL_SECONDS);
        const tenant = await tx.getRepository(TenantEntity).findOneByOrFail({ id: member.tenantId });
        await this.links.passwordReset(tx, member, `${linkBase}${RESET_PASSWORD_PATH}?token=${token}`, expiresAt, tenant.name);
      });
    }
    if (members.length > 0) this.links.wake();
  }

  /** Sets a new password with a reset link's token (used up); every session of the member ends. */
  async confirmReset(token: string, password: string): Promise<void> {
    const member = await this.db.transaction(async (tx) => {
      const memberId = await this.memberTokens.consume(tx, token, 'password_reset');
      const found = memberId ? await tx.getRepository(MemberEntity).findOneBy({ id: memberId, status: 'active' }) : null;
      if (!found) throw new ProblemException(validationProblem([{ field: 'token', message: 'token is not a valid reset link: it is unknown, used or expired' }], 'The password cannot be reset.'));
      found.passwordHash = await hashPassword(password, this.config.PASSWORD_SCRYPT_LOG_N);
      return tx.save(found);
    });
    await this.sessions.endAllOf(member.id);
    // Whoever holds the mailbox may sign in at once, even if someone was guessing the old password.
    await this.throttle.succeeded(member.email);
  }

  private async matchingMember(email: string, password: string, tenantId: string | undefined): Promise<MemberEntity | null> {
    const candidates = await this.db.getRepository(MemberEntity).find({
      where: { email: normaliseEmail(email), status: 'active', ...(tenantId ? { tenantId } : {}) },
      order: { createdAt: 'DESC' },
      take: MAX_MEMBERSHIPS_TRIED,
    });
    if (candidates.length === 0) return this.decoy.verify(password).then(() => null);
    for (const candidate of candidates) {
      if (candidate.passwordHash && (await verifyPassword(password, candidate.passwordHash))) return candidate;
    }
    return null;
  }
}
