import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A team member's sign-in (CONTRACT.md §12). The cookie carries a random token of which only the SHA-256 is stored;
 * the member's access tokens name the session's `id`, so signing out ends them too.
 */
@Entity({ name: 'member_sessions' })
export class MemberSessionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'member_id', type: 'text' })
  memberId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Sliding: pushed forward as the session is used, never past `created_at + SESSION_MAX_AGE_SECONDS`. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
