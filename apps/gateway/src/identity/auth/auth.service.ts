import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem, type Plan } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { parseCookies } from '../../http/cookies';
import type { SignedInMember } from '../../http/request-context';
import { SESSION_COOKIE } from '../sign-in/session-cookies';
import { SessionsService } from '../sign-in/sessions.service';
import { TenantPlansService } from '../tenants/tenant-plans.service';
import { looksLikeApiKey } from './credentials';
import { TokenService } from './token.service';

const REALM = 'Bearer realm="parley"';

/**
 * Who is calling: the tenant of the credential, and its plan (for the quota); for a team member's session (its
 * cookie, or its access token from `POST /auth/login`) also the member, and for the cookie its token (for CSRF).
 */
export interface Principal {
  tenantId: string;
  plan: Plan;
  member?: SignedInMember;
  sessionCookie?: string;
}

/**
 * Resolves a request's credential to the caller's tenant: `Authorization: Bearer` with a JWT (`/oauth/token`, or a
 * member's from `/auth/login`) or an API key; without that header, the dashboard's session cookie (CONTRACT.md §12).
 */
@Injectable()
export class AuthService {
  constructor(
    private readonly tokens: TokenService,
    private readonly apiKeys: ApiKeysService,
    private readonly plans: TenantPlansService,
    private readonly sessions: SessionsService,
  ) {}

  /** An `Authorization` header wins over the cookie: a program's credential is never mistaken for a person's. */
  async authenticateRequest(request: FastifyRequest): Promise<Principal> {
    const authorization = request.headers.authorization;
    if (authorization) return this.authenticate(authorization);
    const cookie = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
    if (!cookie) return this.authenticate(undefined);
    const session = await this.sessions.byToken(cookie);
    const plan = session ? await this.plans.planOf(session.tenantId) : null;
    if (!session || !plan) throw unauthorized('Your session has ended; sign in again.', `${REALM}, error="invalid_token", error_description="The session has ended"`);
    return { tenantId: session.tenantId, plan, member: session.member, sessionCookie: cookie };
  }

  /** The tenant the credential belongs to; a 401 problem with `WWW-Authenticate: Bearer` otherwise. */
  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (!authorization) throw unauthorized('Send Authorization: Bearer <access token or API key>.', REALM);
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <access token or API key>".', `${REALM}, error="invalid_request"`);
    const credential = match[1];
    let tenantId: string | null;
    let member: SignedInMember | undefined;
    if (looksLikeApiKey(credential)) {
      tenantId = await this.apiKeys.authenticate(credential);
    } else {
      const claims = await this.tokens.verifyClaims(credential);
      tenantId = claims?.tenantId ?? null;
      if (claims?.member) {
        // A member's token lasts no longer than the session it was issued with (signing out ends both).
        const session = await this.sessions.byId(claims.member.sessionId, claims.tenantId, claims.member.id);
        tenantId = session ? session.tenantId : null;
        member = session?.member;
      }
    }
    // A credential of a tenant that no longer exists (no plan to read) is refused like an invalid one.
    const plan = tenantId ? await this.plans.planOf(tenantId) : null;
    if (!tenantId || !plan) {
      throw unauthorized(
        'The access token or API key is invalid, expired or revoked.',
        `${REALM}, error="invalid_token", error_description="The access token or API key is invalid, expired or revoked"`,
      );
    }
    return member ? { tenantId, plan, member } : { tenantId, plan };
  }
}

function unauthorized(detail: string, challenge: string): ProblemException {
  return new ProblemException(problem(401, ProblemTypes.unauthorized, 'Unauthorized', detail), { 'www-authenticate': challenge });
}
