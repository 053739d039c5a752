import { Injectable, type CanActivate, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GraphErrors } from './graph-error';

/** The caller's access token: `Authorization: Bearer <token>`, or the `access_token` query parameter Graph also takes. */
export function accessTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const bearer = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
  const query = (request.query as Record<string, unknown> | undefined)?.access_token;
  return bearer ?? (typeof query === 'string' && query.trim() !== '' ? query.trim() : null);
}

/**
 * Graph routes need a token. The sandbox accepts any non-empty one (it stands in for Meta's token checks, which a
 * test cannot reproduce); a missing one fails like an unparsable token does at Meta: 401, code 190.
 */
@Injectable()
export class AccessTokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!accessTokenOf(context.switchToHttp().getRequest<FastifyRequest>())) throw GraphErrors.missingToken();
    return true;
  }
}

/** The `{version}` path segment of a Graph route, like `v21.0`. */
@Injectable()
export class GraphVersionPipe implements PipeTransform<string, string> {
  transform(version: string): string {
    if (!/^v\d{1,2}\.\d$/.test(version)) throw GraphErrors.unknownPath(`/${version}`);
    return version;
  }
}
