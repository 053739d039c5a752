import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan } from 'typeorm';
import type { SignedInMember } from '../../http/request-context';
import { MemberEntity } from '../team/member.entity';
import { MemberSessionEntity } from './member-session.entity';

/** A session that has not ended, with its member's role as it is now. */
export interface LiveSessionRow {
  id: string;
  tenant_id: string;
  member_id: string;
  role: SignedInMember['role'];
  expires_at: Date;
  created_at: Date;
}

/** Members' sign-in sessions as stored: a session's token only as its hash. */
@Injectable()
export class SessionsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores a new session, dropping the member's ended ones (nothing else reads them). */
  async insert(tenantId: string, session: { id: string; tokenHash: string; memberId: string; expiresAt: Date }): Promise<void> {
    const repo = this.db.getRepository(MemberSessionEntity);
    await repo.delete({ memberId: session.memberId, expiresAt: LessThan(new Date()) });
    await repo.insert({ ...session, tenantId });
  }

  /** The session by its token's hash or its id, if it has not expired and its member is active. */
  live(where: { tokenHash: string } | { id: string }): Promise<LiveSessionRow | undefined> {
    return this.db
      .getRepository(MemberSessionEntity)
      .createQueryBuilder('s')
      .innerJoin(MemberEntity, 'm', "m.id = s.member_id AND m.status = 'active'")
      .select(['s.id AS id', 's.tenant_id AS tenant_id', 's.member_id AS member_id', 'm.role AS role', 's.expires_at AS expires_at', 's.created_at AS created_at'])
      .where('tokenHash' in where ? 's.token_hash = :value' : 's.id = :value', { value: 'tokenHash' in where ? where.tokenHash : where.id })
      .andWhere('s.expires_at > now()')
      .getRawOne<LiveSessionRow>();
  }

  async extend(id: string, expiresAt: Date): Promise<void> {
    await this.db.getRepository(MemberSessionEntity).update({ id }, { expiresAt });
  }

  async end(where: { tokenHash: string } | { id: string } | { memberId: string }): Promise<void> {
    await this.db.getRepository(MemberSessionEntity).delete(where);
  }
}
