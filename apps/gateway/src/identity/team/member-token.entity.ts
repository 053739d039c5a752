import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type MemberTokenPurpose = 'invite' | 'password_reset';

/** A single-use link token (invitation, password reset): only its SHA-256 is stored; used = deleted. */
@Entity({ name: 'member_tokens' })
export class MemberTokenEntity {
  @PrimaryColumn({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'member_id', type: 'text' })
  memberId!: string;

  @Column({ type: 'text' })
  purpose!: MemberTokenPurpose;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
