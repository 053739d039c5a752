import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, type IssuedToken } from '@parley/contracts';
import { unstorableTextErrors } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { generateClientSecret, hashSecret, verifySecret } from '../auth/credentials';
import { TokenService } from '../auth/token.service';
import { OAuthError } from './oauth.errors';
import { OAuthClientEntity } from './oauth-client.entity';

const BASIC_CHALLENGE = 'Basic realm="parley", charset="UTF-8"';

/** A token request as it arrived: body fields (JSON or form) and the Authorization header. */
export interface TokenRequest {
  body: unknown;
  authorization?: string;
}

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  viaBasic: boolean;
}

/** OAuth2 client-credentials grant (RFC 6749 §4.4) and the clients it authenticates. */
@Injectable()
export class OAuthService {
  /** Verified against for unknown client ids, so they take as long as wrong secrets (no client-id probing). */
  private readonly decoyHash = hashSecret(generateClientSecret());

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tokens: TokenService,
  ) {}

  /** Creates a tenant's client inside the caller's transaction; the secret is returned once. */
  async registerClient(manager: EntityManager, tenantId: string): Promise<{ client_id: string; client_secret: string }> {
    const clientSecret = generateClientSecret();
    const client = manager.getRepository(OAuthClientEntity).create({ clientId: newId('cli'), tenantId, secretHash: await hashSecret(clientSecret) });
    await manager.save(client);
    return { client_id: client.clientId, client_secret: clientSecret };
  }

  async issueToken(request: TokenRequest): Promise<IssuedToken> {
    const fields = requestFields(request.body);
    // The untyped body skips the global pipe's NUL check: refuse it here, in the OAuth shape.
    const nulErrors = unstorableTextErrors(fields);
    if (nulErrors.length > 0) throw new OAuthError('invalid_request', `${nulErrors.map((e) => e.message).join('; ')}.`);
    const grantType = fields.grant_type;
    if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required.');
    if (typeof grantType !== 'string') throw new OAuthError('invalid_request', 'grant_type must be a string.');
    if (grantType !== 'client_credentials') throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported.');

    const credentials = clientCredentials(fields, request.authorization);
    const tenantId = await this.authenticateClient(credentials);
    if (!tenantId) {
      throw new OAuthError('invalid_client', 'Client authentication failed.', credentials.viaBasic ? BASIC_CHALLENGE : undefined);
    }
    return this.tokens.issue(tenantId);
  }

  private async authenticateClient({ clientId, clientSecret }: ClientCredentials): Promise<string | null> {
    const client = await this.db.getRepository(OAuthClientEntity).findOneBy({ clientId });
    const matches = await verifySecret(clientSecret, client?.secretHash ?? (await this.decoyHash));
    return client && matches ? client.tenantId : null;
  }
}

function requestFields(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_request', 'The body must be a form or a JSON object.');
  return body as Record<string, unknown>;
}

/** Client authentication: HTTP Basic (RFC 6749 §2.3.1) or body parameters, never both. */
function clientCredentials(fields: Record<string, unknown>, authorization: string | undefined): ClientCredentials {
  const basic = parseBasic(authorization);
  if (basic) {
    if (fields.client_secret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method: HTTP Basic or client_secret, not both.');
    if (fields.client_id !== undefined && fields.client_id !== basic.clientId) throw new OAuthError('invalid_request', 'client_id differs from the HTTP Basic user.');
    return { ...basic, viaBasic: true };
  }
  const missing = ['client_id', 'client_secret'].filter((f) => fields[f] === undefined || fields[f] === '');
  if (missing.length) throw new OAuthError('invalid_request', `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required (or use HTTP Basic).`);
  const { client_id: clientId, client_secret: clientSecret } = fields;
  if (typeof clientId !== 'string' || typeof clientSecret !== 'string') throw new OAuthError('invalid_request', 'client_id and client_secret must be strings.');
  return { clientId, clientSecret, viaBasic: false };
}

function parseBasic(authorization: string | undefined): { clientId: string; clientSecret: string } | null {
  if (!authorization || !/^basic /i.test(authorization)) return null;
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new OAuthError('invalid_client', 'The HTTP Basic credentials are malformed.', BASIC_CHALLENGE);
  try {
    // Both parts are form-urlencoded before base64 (RFC 6749 §2.3.1).
    const form = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    const credentials = { clientId: form(decoded.slice(0, colon)), clientSecret: form(decoded.slice(colon + 1)) };
    if (credentials.clientId.includes('\u0000')) throw new URIError('NUL in the client id');
    return credentials;
  } catch {
    throw new OAuthError('invalid_client', 'The HTTP Basic credentials are malformed.', BASIC_CHALLENGE);
  }
}
