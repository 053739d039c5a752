import type { MemberRole, MemberStatus } from '@parley/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A person of a tenant who signs in to the dashboard (CONTRACT.md §12). The email is stored lower-cased. */
@Entity({ name: 'members' })
export class MemberEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  role!: MemberRole;

  @Column({ type: 'text' })
  status!: MemberStatus;

  /** The member who invited them; null for the account's creator, an invitation made by a program, or an inviter since removed. */
  @Column({ name: 'invited_by', type: 'text', nullable: true })
  invitedBy!: string | null;

  /** scrypt (sign-in/passwords.ts); null until an invitation is accepted. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
