import type { ChannelKind, ConversationSource, ConversationState, ConversationTurnRecord, InboxActor, LastMessage, MessageAuthor } from '@parley/contracts';
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { SkillState } from '../replies/reply-engine';

export type { ConversationState };
export type SlaTarget = 'first_response' | 'resolution';
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

  /** The team handling it (CONTRACT.md §18): routing's pick at the handoff, or a person's. */
  @Column({ name: 'team_id', type: 'text', nullable: true })
  teamId?: string | null;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  labels?: string[];

  /** The agent handed it off at this time: it waits in its team's queue until someone holds it. */
  @Column({ name: 'queued_at', type: 'timestamptz', nullable: true })
  queuedAt?: Date | null;

  /** The skill that handed it off (`human` when the customer asked for a person): what a routing rule's `skill` matches. */
  @Column({ name: 'handoff_skill', type: 'text', nullable: true })
  handoffSkill?: string | null;

  /** When routing picked the team for the handoff at `queuedAt` (earlier or null: not yet). */
  @Column({ name: 'routed_at', type: 'timestamptz', nullable: true })
  routedAt?: Date | null;

  /** When routing gave it to its assignee (null when a person chose the assignee): what the reassign timer counts from. */
  @Column({ name: 'assigned_at', type: 'timestamptz', nullable: true })
  assignedAt?: Date | null;

  /** A person's last reply to the customer. */
  @Column({ name: 'member_replied_at', type: 'timestamptz', nullable: true })
  memberRepliedAt?: Date | null;

  /** When the customer was told they wait for a person (once per handoff). */
  @Column({ name: 'customer_told_at', type: 'timestamptz', nullable: true })
  customerToldAt?: Date | null;

  @Column({ name: 'sla_first_response_due_at', type: 'timestamptz', nullable: true })
  slaFirstResponseDueAt?: Date | null;

  @Column({ name: 'sla_resolution_due_at', type: 'timestamptz', nullable: true })
  slaResolutionDueAt?: Date | null;

  /** When a person first took it over (the agent's handoff, a member taking over or replying): reports count it handed off. */
  @Column({ name: 'handed_off_at', type: 'timestamptz', nullable: true })
  handedOffAt?: Date | null;

  /** A person's first reply to the customer: the first response the reports measure from the handoff. */
  @Column({ name: 'first_member_reply_at', type: 'timestamptz', nullable: true })
  firstMemberReplyAt?: Date | null;

  /** When it was last closed (null while open): the resolution the reports measure from its start. */
  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt?: Date | null;

  /** When the customer was asked to rate it, at its close (once per conversation). */
  @Column({ name: 'csat_requested_at', type: 'timestamptz', nullable: true })
  csatRequestedAt?: Date | null;

  /** The customer's rating, 1 (very poor) to 5 (excellent). */
  @Column({ name: 'rating_score', type: 'int', nullable: true })
  ratingScore?: number | null;

  @Column({ name: 'rating_comment', type: 'text', nullable: true })
  ratingComment?: string | null;

  @Column({ name: 'rated_at', type: 'timestamptz', nullable: true })
  ratedAt?: Date | null;

  /** Everyone its notes mentioned: the inbox's "mentioning me". */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  mentioned?: string[];

  /** The targets this handoff missed (`first_response`, `resolution`), each announced once. */
  @Column({ name: 'sla_breaches', type: 'text', array: true, default: () => "'{}'" })
  slaBreaches?: SlaTarget[];

  /** The next due time to check against (the earliest target not yet met or missed); null when none is left. */
  @Column({ name: 'sla_check_at', type: 'timestamptz', nullable: true })
  slaCheckAt?: Date | null;
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

  /** The members the text mentions (`@usr_…`). */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  mentions!: string[];
}
