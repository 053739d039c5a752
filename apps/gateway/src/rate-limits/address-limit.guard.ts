import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { AddressRateLimiter, type AddressLimit } from './address-rate-limiter';

export type AddressLimitName = 'accounts' | 'token' | 'sign-in';
const ADDRESS_LIMIT = 'parley:address-limit';

/** The error a route throws for an address over its allowance instead of the problem+json 429 (the token endpoint's OAuth shape). */
export type AddressLimitRefusal = (detail: string, headers: Record<string, string>) => Error;

interface AddressLimitedRoute {
  name: AddressLimitName;
  refuse?: AddressLimitRefusal;
}

/** Limits the route per client address (with `@UseGuards(AddressLimitGuard)`); the guard runs before the body is validated. */
export const LimitPerAddress = (name: AddressLimitName, refuse?: AddressLimitRefusal) => SetMetadata(ADDRESS_LIMIT, { name, refuse } satisfies AddressLimitedRoute);

/**
 * Refuses a client address over its allowance with 429 and `Retry-After`: problem+json, or the route's own refusal
 * (the token endpoint's, see identity/oauth/token-route.ts).
 */
@Injectable()
export class AddressLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: AddressRateLimiter,
    private readonly reflector: Reflector,
    private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limited = this.reflector.getAllAndOverride<AddressLimitedRoute | undefined>(ADDRESS_LIMIT, [context.getHandler(), context.getClass()]);
    if (!limited) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const verdict = await this.limiter.hit(this.rule(limited.name), request.ip);
    if (verdict.allowed) return true;
    const detail = `Too many requests from your address; retry in ${verdict.retryAfter} s.`;
    const headers = { 'retry-after': String(verdict.retryAfter) };
    if (limited.refuse) throw limited.refuse(detail, headers);
    throw new ProblemException(problem(429, ProblemTypes.rateLimited, 'Too Many Requests', detail), headers);
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
