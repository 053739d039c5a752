import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { looksLikeApiKey } from './credentials';
import { TokenService } from './token.service';

const REALM = 'Bearer realm="parley"';

/** Resolves an `Authorization` header to the caller's tenant: a JWT from `/oauth/token`, or an API key. */
@Injectable()
export class AuthService {
  constructor(
    private readonly tokens: TokenService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  /** The tenant the credential belongs to; a 401 problem with `WWW-Authenticate: Bearer` otherwise. */
  async authenticate(authorization: string | undefined): Promise<string> {
    if (!authorization) throw unauthorized('Send Authorization: Bearer <access token or API key>.', REALM);
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <access token or API key>".', `${REALM}, error="invalid_request"`);
    const credential = match[1];
    const tenantId = looksLikeApiKey(credential) ? await this.apiKeys.authenticate(credential) : await this.tokens.verify(credential);
    if (!tenantId) {
      throw unauthorized(
        'The access token or API key is invalid, expired or revoked.',
        `${REALM}, error="invalid_token", error_description="The access token or API key is invalid, expired or revoked"`,
      );
    }
    return tenantId;
  }
}

function unauthorized(detail: string, challenge: string): ProblemException {
  return new ProblemException(problem(401, ProblemTypes.unauthorized, 'Unauthorized', detail), { 'www-authenticate': challenge });
}
