import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { IssuedToken } from '@parley/contracts';
import { GatewayConfig } from '../../config/gateway.config';

export const JWT_ISSUER = 'parley';
export const JWT_AUDIENCE = 'parley-api';
export const JWT_ALGORITHM = 'HS256';

/** What a valid token says: its tenant and, for a team member's token (`POST /auth/login`), the member and session. */
export interface TokenClaims {
  tenantId: string;
  member?: { id: string; sessionId: string };
}

/**
 * Access tokens (CONTRACT.md §2): HS256 JWTs naming the tenant in `sub`; a team member's (§12) also names the member
 * (`mbr`) and the sign-in session (`sid`), which must still be live when the token is used. Verification pins the algorithm, issuer
 * and audience and requires an expiry, so `alg: none`, a token signed with another key, for another audience or
 * without `exp` is refused.
 */
@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    private readonly config: GatewayConfig,
  ) {}

  async issue(tenantId: string): Promise<IssuedToken> {
    const accessToken = await this.jwt.signAsync(
      {},
      { subject: tenantId, issuer: JWT_ISSUER, audience: JWT_AUDIENCE, algorithm: JWT_ALGORITHM, expiresIn: this.config.JWT_TTL_SECONDS },
    );
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.config.JWT_TTL_SECONDS };
  }

  /** A team member's token, valid while its session lasts and at most `JWT_TTL_SECONDS`. */
  async issueForMember(tenantId: string, memberId: string, sessionId: string): Promise<IssuedToken> {
    const accessToken = await this.jwt.signAsync(
      { mbr: memberId, sid: sessionId },
      { subject: tenantId, issuer: JWT_ISSUER, audience: JWT_AUDIENCE, algorithm: JWT_ALGORITHM, expiresIn: this.config.JWT_TTL_SECONDS },
    );
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.config.JWT_TTL_SECONDS };
  }

  /** The tenant a token was issued to, or null when the token is not one we issued and still valid. */
  async verify(token: string): Promise<string | null> {
    return (await this.verifyClaims(token))?.tenantId ?? null;
  }

  async verifyClaims(token: string): Promise<TokenClaims | null> {
    try {
      const payload = await this.jwt.verifyAsync<{ sub?: unknown; exp?: unknown; mbr?: unknown; sid?: unknown }>(token, {
        algorithms: [JWT_ALGORITHM],
        issuer: JWT_ISSUER,
        audience: JWT_AUDIENCE,
      });
      // jsonwebtoken accepts a token without `exp` as valid forever; every token we issue has one (CONTRACT.md §2).
      if (typeof payload.exp !== 'number') return null;
      if (typeof payload.sub !== 'string' || !payload.sub.startsWith('ten_')) return null;
      if (payload.mbr === undefined && payload.sid === undefined) return { tenantId: payload.sub };
      if (typeof payload.mbr !== 'string' || typeof payload.sid !== 'string') return null;
      return { tenantId: payload.sub, member: { id: payload.mbr, sessionId: payload.sid } };
    } catch {
      return null;
    }
  }
}
