import type { ChannelKind, InboundMessageType, MailAuthenticationResults, MessageAttachment, MessageError, MessageStatus, RichOutboundContent } from '@parley/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type MessageDirection = 'outbound' | 'inbound';

/** The Cloud API `template` of a template message, as it was sent (components are JSON from the send body). */
export interface StoredTemplate {
  name: string;
  language: { code: string; policy?: string };
  components?: object[];
}

export interface StatusEntry {
  status: MessageStatus;
  at: string;
}

@Entity({ name: 'messages' })
export class MessageEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** Insertion order: the newest-first listing and its cursor. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  direction!: MessageDirection;

  /** Which kind of channel it went or came on (CONTRACT.md §17). */
  @Column({ type: 'text', default: 'whatsapp' })
  channel!: ChannelKind;

  /** Email: the subject line and the HTML alternative of `body`. */
  @Column({ type: 'text', nullable: true })
  subject!: string | null;

  @Column({ type: 'text', nullable: true })
  html!: string | null;

  @Column({ name: 'channel_id', type: 'text', nullable: true })
  channelId!: string | null;

  /** Outbound: the business number (null until a channel is resolved); inbound: the customer. */
  @Column({ name: 'from', type: 'text', nullable: true })
  from!: string | null;

  @Column({ name: 'to', type: 'text' })
  to!: string;

  @Column({ type: 'text' })
  type!: InboundMessageType | 'template';

  /** The text, or a text stand-in for other types. */
  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'jsonb', nullable: true })
  template!: StoredTemplate | null;

  /** Media, location and interactive messages: their content as sent (CONTRACT.md §13). */
  @Column({ type: 'jsonb', nullable: true })
  content!: RichOutboundContent | null;

  @Column({ type: 'text' })
  status!: MessageStatus;

  @Column({ name: 'status_history', type: 'jsonb' })
  statusHistory!: StatusEntry[];

  @Column({ type: 'jsonb', nullable: true })
  error!: MessageError | null;

  /** A customer's email: its attachments in the media store, and its SPF/DKIM results (EmailInboundService). */
  @Column({ type: 'jsonb', nullable: true })
  attachments!: MessageAttachment[] | null;

  @Column({ type: 'jsonb', nullable: true })
  authentication!: MailAuthenticationResults | null;

  /** The provider's id (wamid). */
  @Column({ name: 'provider_message_id', type: 'text', nullable: true })
  providerMessageId!: string | null;

  /** Provider calls made for an outbound message; above 1 means a send was repeated. */
  @Column({ name: 'send_attempts', type: 'int', default: 0 })
  sendAttempts!: number;

  /** Outbound: how many `status_history` entries have been announced on `message.status`. */
  @Column({ name: 'announced_statuses', type: 'int', default: 0 })
  announcedStatuses!: number;

  /** Outbound: a campaign's message (its statuses say so in their `campaign` header); null from before it was recorded. */
  @Column({ name: 'from_campaign', type: 'boolean', nullable: true })
  fromCampaign!: boolean | null;

  /** Inbound: whether `message.inbound` has been acknowledged by the broker. */
  @Column({ type: 'boolean', default: false })
  published!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
