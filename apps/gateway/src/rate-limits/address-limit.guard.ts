import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { OAuthError } from '../oauth/oauth.errors';
import { AddressRateLimiter, type AddressLimit } from './address-rate-limiter';

export type AddressLimitName = 'accounts' | 'token' | 'sign-in';
const ADDRESS_LIMIT = 'parley:address-limit';

/** Limits the route per client address (with `@UseGuards(AddressLimitGuard)`); the guard runs before the body is validated. */
export const LimitPerAddress = (name: AddressLimitName) => SetMetadata(ADDRESS_LIMIT, name);

/**
 * Refuses a client address over its allowance with 429 and `Retry-After`. The token endpoint keeps its OAuth error
 * shape (RFC 6749 §5.2 has no rate-limit code; `slow_down`, registered for the token endpoint by RFC 8628 §3.5,
 * says exactly "retry later, more slowly"), so OAuth client libraries still find an `error` they can read.
 */
@Injectable()
export class AddressLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: AddressRateLimiter,
    private readonly reflector: Reflector,
    private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const name = this.reflector.getAllAndOverride<AddressLimitName | undefined>(ADDRESS_LIMIT, [context.getHandler(), context.getClass()]);
    if (!name) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const verdict = await this.limiter.hit(this.rule(name), request.ip);
    if (verdict.allowed) return true;
    const detail = `Too many requests from your address; retry in ${verdict.retryAfter} s.`;
    if (name === 'token') throw new OAuthError('slow_down', detail, undefined, 429, { 'retry-after': String(verdict.retryAfter) });
    throw new ProblemException(problem(429, ProblemTypes.rateLimited, 'Too Many Requests', detail), { 'retry-after': String(verdict.retryAfter) });
  }

  private rule(name: AddressLimitName): AddressLimit {
    switch (name) {
      case 'accounts':
        return { name, limit: this.config.ACCOUNT_RATE_LIMIT_PER_HOUR, windowSeconds: 3600 };
      case 'token':
        return { name, limit: this.config.TOKEN_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 };
      case 'sign-in':
        return { name, limit: this.config.SIGN_IN_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 };
    }
  }
}
