import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_ROUTE } from '../../http/request-context';
import { MemberQuotaService } from '../../quotas/member-quota.service';
import { QuotaService } from '../../quotas/quota.service';
import { CSRF_HEADER, UNSAFE_METHODS } from '../sign-in/session-cookies';
import { SessionsService } from '../sign-in/sessions.service';
import { AuthService, type Principal } from './auth.service';

/** Tenant routes (CONTRACT.md §2): everything under these prefixes needs a credential unless marked `@Public()`. */
export const PROTECTED_PREFIXES = ['/api/v1/', '/v1/'];

export const isTenantPath = (path: string) => PROTECTED_PREFIXES.some((prefix) => path.startsWith(prefix));

/**
 * Authenticates tenant requests when they arrive (Fastify `onRequest`), before the body is read, and counts them
 * against the tenant's daily quota. So every answer to a valid credential counts and carries `RateLimit`
 * (CONTRACT.md §8), also one that fails before any handler runs: malformed JSON, 413, 415, 405, an unknown route.
 * The refusals themselves (401, 429) come a step later (`refuse`, Fastify `preParsing`), once Nest's request logging
 * (an `onRequest` hook installed after ours) has seen the request, and still before the body is read.
 *
 * A team member's session (CONTRACT.md §12) is counted against the member's own daily allowance instead of the
 * tenant's quota, and a cookie-authenticated request that changes something must carry the session's CSRF token
 * (`X-CSRF-Token`, 403 otherwise); a bearer credential needs none, since a browser never sends it by itself.
 */
@Injectable()
export class RequestAuthentication {
  constructor(
    private readonly auth: AuthService,
    private readonly quotas: QuotaService,
    private readonly memberQuotas: MemberQuotaService,
    private readonly sessions: SessionsService,
  ) {}

  async onRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!isTenantPath(request.is404 ? request.url : (request.routeOptions.url ?? ''))) return;
    if (request.is404) {
      // No route (or not with this method): its 404 or 405 stands either way, so a missing or invalid credential
      // changes nothing; a valid one is counted and told where it stands.
      const principal = await this.auth.authenticateRequest(request).catch(() => null);
      if (principal) await this.admit(request, reply, principal);
      return;
    }
    if ((request.routeOptions.config as unknown as Record<string, unknown>)[PUBLIC_ROUTE] === true) return;
    let principal: Principal;
    try {
      principal = await this.auth.authenticateRequest(request);
      this.checkCsrf(request, principal);
    } catch (err) {
      request.authFailure = err;
      return;
    }
    await this.admit(request, reply, principal);
  }

  /**
   * Refuses what `onRequest` found: a missing or invalid credential (401), a missing CSRF token (403), a request over
   * the quota or the member's allowance (429).
   */
  refuse(request: FastifyRequest): void {
    if (request.authFailure !== undefined) throw request.authFailure;
    if (request.quota) this.quotas.enforce(request.quota);
    if (request.memberQuota) this.memberQuotas.enforce(request.memberQuota);
  }

  /** For the guard: authenticates a tenant route that was not authenticated on arrival (there is none today). */
  async ensure(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.tenantId !== undefined) return;
    const principal = await this.auth.authenticateRequest(request);
    this.checkCsrf(request, principal);
    await this.admit(request, reply, principal);
    this.refuse(request);
  }

  private checkCsrf(request: FastifyRequest, principal: Principal): void {
    if (principal.sessionCookie === undefined || !UNSAFE_METHODS.has(request.method)) return;
    const presented = request.headers[CSRF_HEADER];
    if (this.sessions.csrfTokenMatches(principal.sessionCookie, typeof presented === 'string' ? presented : undefined)) return;
    throw new ProblemException(
      problem(403, ProblemTypes.forbidden, 'Forbidden', 'A request signed in with the session cookie must carry the X-CSRF-Token header (the value of the parley_csrf cookie).'),
    );
  }

  /**
   * Takes the tenant (and member) from the credential, counts the request and puts its RateLimit fields on the
   * answer, whatever it becomes: against the tenant's quota, or a member's allowance for a member's session.
   */
  private async admit(request: FastifyRequest, reply: FastifyReply, { tenantId, plan, member }: Principal): Promise<void> {
    request.tenantId = tenantId;
    if (member) {
      request.member = member;
      const allowance = await this.memberQuotas.consume(member.id);
      if (!allowance) return;
      request.memberQuota = allowance;
      void reply.headers(this.memberQuotas.headers(allowance));
      return;
    }
    const quota = await this.quotas.consume(tenantId, plan);
    if (!quota) return;
    request.quota = quota;
    void reply.headers(this.quotas.headers(quota));
  }
}
