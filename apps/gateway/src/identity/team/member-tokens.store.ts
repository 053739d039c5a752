import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, LessThan, type EntityManager } from 'typeorm';
import { MemberTokenEntity, type MemberTokenPurpose } from './member-token.entity';

/** A link's token (shown once, in the link) and when it stops working. */
export interface IssuedLinkToken {
  token: string;
  expiresAt: Date;
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Single-use link tokens for invitations and password resets, as stored: 256 random bits, kept as a SHA-256 (enough
 * for a secret with nothing to brute-force, and an indexed lookup), expiring, and deleted when used. Issuing and using
 * one take the caller's transaction (`tx`): the member's change and the token's go together.
 */
@Injectable()
export class MemberTokensStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A new token for the member; earlier unused ones of the same purpose stop working (the newest link is the one). */
  async issue(manager: EntityManager, memberId: string, purpose: MemberTokenPurpose, ttlSeconds: number): Promise<IssuedLinkToken> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    const repo = manager.getRepository(MemberTokenEntity);
    await repo.delete({ memberId, purpose });
    await repo.delete({ expiresAt: LessThan(new Date()) });
    await repo.insert({ tokenHash: hashToken(token), memberId, purpose, expiresAt });
    return { token, expiresAt };
  }

  /** Looks a token up without using it: the member it was issued to and until when, or null when unknown, used or expired. */
  async peek(token: string, purpose: MemberTokenPurpose): Promise<{ memberId: string; expiresAt: Date } | null> {
    const row = await this.db.getRepository(MemberTokenEntity).findOneBy({ tokenHash: hashToken(token), purpose });
    return row && row.expiresAt.getTime() > Date.now() ? { memberId: row.memberId, expiresAt: row.expiresAt } : null;
  }

  /** Uses a token up: the member it was issued to, or null when it is unknown, used or expired. */
  async consume(manager: EntityManager, token: string, purpose: MemberTokenPurpose): Promise<string | null> {
    const deleted = await manager
      .getRepository(MemberTokenEntity)
      .createQueryBuilder()
      .delete()
      .where('token_hash = :hash AND purpose = :purpose', { hash: hashToken(token), purpose })
      .returning('member_id, expires_at')
      .execute();
    const row = (deleted.raw as { member_id: string; expires_at: Date }[])[0];
    return row && new Date(row.expires_at).getTime() > Date.now() ? row.member_id : null;
  }
}
