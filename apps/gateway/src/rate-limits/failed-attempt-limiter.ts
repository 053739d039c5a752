import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { GatewayConfig } from '../config/gateway.config';
import { AddressRateLimiter, type AddressLimit } from './address-rate-limiter';

/**
 * Per-address limit on FAILED credentials at the unauthenticated provider intake (verify token, body signature,
 * channel token): guessing is refused with 429 once an address has failed too often in a minute, while a provider
 * that authenticates correctly is never counted, however much it sends.
 */
@Injectable()
export class FailedAttemptLimiter {
  constructor(
    private readonly limiter: AddressRateLimiter,
    private readonly config: GatewayConfig,
  ) {}

  async attempt<T>(address: string, authenticate: () => Promise<T>): Promise<T> {
    const rule: AddressLimit = { name: 'intake-failures', limit: this.config.INTAKE_AUTH_FAILURES_PER_MINUTE, windowSeconds: 60 };
    const standing = await this.limiter.check(rule, address);
    if (!standing.allowed) {
      throw new ProblemException(
        problem(429, ProblemTypes.rateLimited, 'Too Many Requests', `Too many failed attempts from your address; retry in ${standing.retryAfter} s.`),
        { 'retry-after': String(standing.retryAfter) },
      );
    }
    try {
      return await authenticate();
    } catch (err) {
      if (err instanceof ProblemException && (err.problem.status === 401 || err.problem.status === 403)) await this.limiter.hit(rule, address);
      throw err;
    }
  }
}
