import type { RichType } from '../cloud-api/rich-content';
import type { TemplateContent } from '../cloud-api/send-request';
import { Column, Entity, PrimaryColumn } from 'typeorm';

export type MessageDirection = 'outbound' | 'inbound';

/**
 * One message through the sandbox: `outbound` = accepted on the Cloud API send route (what a customer received),
 * `inbound` = a customer's message the sandbox delivered to the gateway.
 */
@Entity({ name: 'messages' })
export class MessageEntity {
  /** The wamid. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  direction!: MessageDirection;

  @Column({ name: 'phone_number_id', type: 'text' })
  phoneNumberId!: string;

  /** The business number (E.164). */
  @Column({ name: 'business_number', type: 'text' })
  businessNumber!: string;

  /** The customer's number (E.164). */
  @Column({ name: 'customer_number', type: 'text' })
  customerNumber!: string;

  @Column({ type: 'text' })
  type!: 'text' | 'template' | RichType;

  @Column({ type: 'text', nullable: true })
  body!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  template!: TemplateContent | null;

  /** Media, location and interactive messages: the type's object as sent (outbound) or as notified (inbound). */
  @Column({ type: 'jsonb', nullable: true })
  content!: Record<string, unknown> | null;

  @Column({ name: 'context_message_id', type: 'text', nullable: true })
  contextMessageId!: string | null;

  @Column({ name: 'biz_opaque_callback_data', type: 'text', nullable: true })
  bizOpaqueCallbackData!: string | null;

  /** When the sandbox accepted (outbound) or produced (inbound) the message. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Insertion order: breaks ties between messages of the same millisecond. Assigned by the database. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;
}
