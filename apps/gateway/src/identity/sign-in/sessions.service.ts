import { Injectable } from '@nestjs/common';
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { constantTimeEqual } from '../auth/credentials';
import { GatewayConfig } from '../../config/gateway.config';
import type { SignedInMember } from '../../http/request-context';
import { SessionsStore } from './sessions.store';

/** A live session: whose it is, with the member's role as it is now (a role change applies at the next request). */
export interface LiveSession {
  id: string;
  tenantId: string;
  member: SignedInMember;
}

export interface StartedSession {
  id: string;
  /** The cookie's value; only its hash is stored. */
  token: string;
  /** The CSRF token that goes with it (`parley_csrf` cookie, echoed in `X-CSRF-Token`). */
  csrfToken: string;
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Team members' sign-in sessions (CONTRACT.md §12), in PostgreSQL: a session ends when it has not been used for
 * `SESSION_TTL_SECONDS` (sliding), `SESSION_MAX_AGE_SECONDS` after sign-in, at sign-out, when the password is reset,
 * and with the member (cascade). Each use reads the member's current role, so a demotion counts at once.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsStore,
    private readonly config: GatewayConfig,
  ) {}

  async start(tenantId: string, memberId: string): Promise<StartedSession> {
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    await this.sessions.insert(tenantId, { id, tokenHash: hashToken(token), memberId, expiresAt: new Date(Date.now() + this.idleMs()) });
    return { id, token, csrfToken: this.csrfTokenFor(token) };
  }

  /** The live session a cookie names, renewed; null when there is none (unknown, ended, member gone). */
  byToken(token: string): Promise<LiveSession | null> {
    return this.live({ tokenHash: hashToken(token) });
  }

  /** The live session a member's access token names; null when it ended or is not that member's. */
  async byId(id: string, tenantId: string, memberId: string): Promise<LiveSession | null> {
    const session = await this.live({ id });
    return session && session.tenantId === tenantId && session.member.id === memberId ? session : null;
  }

  async endByToken(token: string): Promise<void> {
    await this.sessions.end({ tokenHash: hashToken(token) });
  }

  async endById(id: string): Promise<void> {
    await this.sessions.end({ id });
  }

  async endAllOf(memberId: string): Promise<void> {
    await this.sessions.end({ memberId });
  }

  /**
   * The CSRF token of a session: an HMAC of its cookie token (a signed double-submit token). A page can read it from
   * the `parley_csrf` cookie, a page of another site cannot, and it cannot be made up without the session.
   */
  csrfTokenFor(sessionToken: string): string {
    return createHmac('sha256', `${this.config.JWT_SECRET}:csrf`).update(sessionToken).digest('base64url');
  }

  csrfTokenMatches(sessionToken: string, presented: string | undefined): boolean {
    return typeof presented === 'string' && presented.length > 0 && constantTimeEqual(this.csrfTokenFor(sessionToken), presented);
  }

  private async live(where: { tokenHash: string } | { id: string }): Promise<LiveSession | null> {
    const row = await this.sessions.live(where);
    if (!row) return null;
    await this.renew(row.id, row.expires_at, row.created_at);
    return { id: row.id, tenantId: row.tenant_id, member: { id: row.member_id, role: row.role } };
  }

  /** Slides the expiry forward, at most once a minute (or half the idle time, when that is shorter) per session. */
  private async renew(id: string, expiresAt: Date, createdAt: Date): Promise<void> {
    const idleMs = this.idleMs();
    const slackMs = Math.min(60_000, idleMs / 2);
    const renewed = Math.min(Date.now() + idleMs, createdAt.getTime() + this.config.SESSION_MAX_AGE_SECONDS * 1000);
    if (renewed - expiresAt.getTime() < slackMs) return;
    await this.sessions.extend(id, new Date(renewed));
  }

  private idleMs(): number {
    return Math.min(this.config.SESSION_TTL_SECONDS, this.config.SESSION_MAX_AGE_SECONDS) * 1000;
  }
}
