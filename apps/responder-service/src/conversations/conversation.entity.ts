import type { ChannelKind, ConversationSource, ConversationState, ConversationTurnRecord, InboxActor, LastMessage, MessageAuthor } from '@parley/contracts';
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { SkillState } from '../replies/reply-engine';

export type { ConversationState };
/** `member`: a person's reply from the inbox (a member's, or a program's through the API). */
export type TurnRole = 'customer' | 'agent' | 'member';

/** A tenant's business number + a customer, until 24 h of silence (CONTRACT.md §10). */
@Entity({ name: 'conversations' })
export class ConversationEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'channel_id', type: 'text' })
  channelId!: string;

  /** The kind of that channel (whatsapp, sms, email, voice): what the inbox shows, and what a person's reply goes out on. */
  @Column({ type: 'text', default: 'whatsapp' })
  channel!: ChannelKind;

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

  /** The team member it is assigned to (`usr_…`). */
  @Column({ type: 'text', nullable: true })
  assignee!: string | null;

  /** Customer messages no person has read: those the agent did not answer, since a member last opened or answered it. */
  @Column({ type: 'int', default: 0 })
  unread!: number;

  /** The contact's name in crm-service (edited by the team, or a lead's or an import's): first choice in the inbox. */
  @Column({ name: 'contact_name', type: 'text', nullable: true })
  contactName!: string | null;

  /** The lead's name, once the agent learnt it: the contact's name in the inbox until crm-service has one. */
  @Column({ name: 'lead_name', type: 'text', nullable: true })
  leadName!: string | null;

  /** The customer's WhatsApp profile name, when the provider sent one: the contact's name until the lead's is known. */
  @Column({ name: 'profile_name', type: 'text', nullable: true })
  profileName!: string | null;

  /** The thread's newest message, in either direction. */
  @Column({ name: 'last_message', type: 'jsonb', nullable: true })
  lastMessage!: LastMessage | null;

  /** The customer's own newest message: the inbox list's preview. */
  @Column({ name: 'last_customer_message', type: 'jsonb', nullable: true })
  lastCustomerMessage!: LastMessage | null;

  /** `playground` when the dashboard's playground plays the customer (playground_customers), else `customer`. */
  @Column({ type: 'text', default: 'customer' })
  source!: ConversationSource;
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

  /** Who wrote an agent's or a person's message; null for the customer's. */
  @Column({ type: 'jsonb', nullable: true })
  author!: MessageAuthor | null;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'timestamptz' })
  at!: Date;

  /** What the message carried besides its text (a file, a tapped reply, a location, a template…); null for text. */
  @Column({ type: 'jsonb', nullable: true })
  content!: TurnContent | null;

  /**
   * The text-search configuration its words are stemmed with (inbox-search.ts): its conversation's language when the
   * message was stored, else `simple`. The `search` tsvector generated from it is the database's, never read here.
   */
  @Column({ name: 'search_config', type: 'text', default: 'simple' })
  searchConfig!: string;
}

/** A thread message's rich parts, as the thread returns them (CONTRACT.md §13). */
export type TurnContent = Pick<ConversationTurnRecord, 'media' | 'interactive' | 'location' | 'options' | 'template'> & { type: string };

/** An internal note on a conversation (`nte_…`): never sent to the customer. */
@Entity({ name: 'conversation_notes' })
export class ConversationNoteEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'conversation_id', type: 'text' })
  conversationId!: string;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'jsonb' })
  author!: InboxActor;

  @Column({ type: 'timestamptz' })
  at!: Date;
}
