import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { constantTimeEqual } from '../identity/auth/credentials';
import { GatewayConfig } from '../config/gateway.config';

/** Operator routes (`/admin/v1/*`): `Authorization: Bearer $ADMIN_TOKEN`, compared in constant time. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const authorization = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (match && constantTimeEqual(match[1], this.config.ADMIN_TOKEN)) return true;
    throw new ProblemException(problem(401, ProblemTypes.unauthorized, 'Unauthorized', 'Send Authorization: Bearer <admin token>.'), {
      'www-authenticate': 'Bearer realm="parley-admin"',
    });
  }
}
