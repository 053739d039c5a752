import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { Plan } from '../accounts/tenant.entity';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { TenantPlansService } from '../tenants/tenant-plans.service';
import { looksLikeApiKey } from './credentials';
import { TokenService } from './token.service';

const REALM = 'Bearer realm="parley"';

/** Who is calling: the tenant of the credential, and its plan (for the quota). */
export interface Principal {
  tenantId: string;
  plan: Plan;
}

/** Resolves an `Authorization` header to the caller's tenant: a JWT from `/oauth/token`, or an API key. */
@Injectable()
export class AuthService {
  constructor(
    private readonly tokens: TokenService,
    private readonly apiKeys: ApiKeysService,
    private readonly plans: TenantPlansService,
  ) {}

  /** The tenant the credential belongs to; a 401 problem with `WWW-Authenticate: Bearer` otherwise. */
  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (!authorization) throw unauthorized('Send Authorization: Bearer <access token or API key>.', REALM);
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <access token or API key>".', `${REALM}, error="invalid_request"`);
    const credential = match[1];
    const tenantId = looksLikeApiKey(credential) ? await this.apiKeys.authenticate(credential) : await this.tokens.verify(credential);
    // A credential of a tenant that no longer exists (no plan to read) is refused like an invalid one.
    const plan = tenantId ? await this.plans.planOf(tenantId) : null;
    if (!tenantId || !plan) {
      throw unauthorized(
        'The access token or API key is invalid, expired or revoked.',
        `${REALM}, error="invalid_token", error_description="The access token or API key is invalid, expired or revoked"`,
      );
    }
    return { tenantId, plan };
  }
}

function unauthorized(detail: string, challenge: string): ProblemException {
  return new ProblemException(problem(401, ProblemTypes.unauthorized, 'Unauthorized', detail), { 'www-authenticate': challenge });
}
