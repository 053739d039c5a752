import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_ROUTE } from '../http/request-context';
import { QuotaService } from '../quotas/quota.service';
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
 */
@Injectable()
export class RequestAuthentication {
  constructor(
    private readonly auth: AuthService,
    private readonly quotas: QuotaService,
  ) {}

  async onRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!isTenantPath(request.is404 ? request.url : (request.routeOptions.url ?? ''))) return;
    if (request.is404) {
      // No route (or not with this method): its 404 or 405 stands either way, so a missing or invalid credential
      // changes nothing; a valid one is counted and told where it stands.
      const principal = await this.auth.authenticate(request.headers.authorization).catch(() => null);
      if (principal) await this.admit(request, reply, principal);
      return;
    }
    if ((request.routeOptions.config as unknown as Record<string, unknown>)[PUBLIC_ROUTE] === true) return;
    let principal: Principal;
    try {
      principal = await this.auth.authenticate(request.headers.authorization);
    } catch (err) {
      request.authFailure = err;
      return;
    }
    await this.admit(request, reply, principal);
  }

  /** Refuses what `onRequest` found: a missing or invalid credential (401), a request over the quota (429). */
  refuse(request: FastifyRequest): void {
    if (request.authFailure !== undefined) throw request.authFailure;
    if (request.quota) this.quotas.enforce(request.quota);
  }

  /** For the guard: authenticates a tenant route that was not authenticated on arrival (there is none today). */
  async ensure(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.tenantId !== undefined) return;
    await this.admit(request, reply, await this.auth.authenticate(request.headers.authorization));
    this.refuse(request);
  }

  /** Takes the tenant from the credential, counts the request and puts its RateLimit fields on the answer, whatever it becomes. */
  private async admit(request: FastifyRequest, reply: FastifyReply, { tenantId, plan }: Principal): Promise<void> {
    request.tenantId = tenantId;
    const quota = await this.quotas.consume(tenantId, plan);
    if (!quota) return;
    request.quota = quota;
    void reply.headers(this.quotas.headers(quota));
  }
}
