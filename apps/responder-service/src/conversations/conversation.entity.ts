import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { SkillState } from '../replies/reply-engine';

export type ConversationState = 'active' | 'handed_off';
export type TurnRole = 'customer' | 'agent';

/** A tenant's business number + a customer, until 24 h of silence (CONTRACT.md §10). */
@Entity({ name: 'conversations' })
export class ConversationEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'channel_id', type: 'text' })
  channelId!: string;

  @Column({ name: 'business_number', type: 'text' })
  businessNumber!: string;

  @Column({ type: 'text' })
  customer!: string;

  @Column({ type: 'text', default: 'active' })
  state!: ConversationState;

  /** Replies the agent gave; the first one opens with the greeting (kept here, since old turns are pruned). */
  @Column({ name: 'reply_count', type: 'int', default: 0 })
  replyCount!: number;

  /** What the skills remember between replies (lead facts so far, the slot being booked). */
  @Column({ name: 'skill_state', type: 'jsonb', default: () => "'{}'" })
  skillState!: SkillState;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  /** When the customer last wrote (their message's received_at): what 24 h of silence is measured from. */
  @Column({ name: 'last_message_at', type: 'timestamptz' })
  lastMessageAt!: Date;
}

/** One turn of a conversation's bounded memory. */
@Entity({ name: 'conversation_messages' })
export class ConversationMessageEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ name: 'conversation_id', type: 'text' })
  conversationId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** The inbound message's id, or the reply's. */
  @Column({ name: 'message_id', type: 'text' })
  messageId!: string;

  @Column({ type: 'text' })
  role!: TurnRole;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'timestamptz' })
  at!: Date;
}
