import type { TemplateContent } from '../cloud-api/send-request';
import type { MessageEntity } from './message.entity';

/** A message customers received, as `GET /_sandbox/messages` lists it (CONTRACT.md §8). */
export interface SandboxMessageRecord {
  id: string;
  phone_number_id: string;
  /** The business number (E.164). */
  from: string;
  /** The customer (E.164). */
  to: string;
  type: 'text' | 'template';
  text?: { body: string };
  template?: TemplateContent;
  context?: { message_id: string };
  /** When the sandbox accepted it (RFC 3339). */
  timestamp: string;
}

export function toMessageRecord(entity: MessageEntity): SandboxMessageRecord {
  return {
    id: entity.id,
    phone_number_id: entity.phoneNumberId,
    from: entity.businessNumber,
    to: entity.customerNumber,
    type: entity.type,
    ...(entity.type === 'text' ? { text: { body: entity.body ?? '' } } : {}),
    ...(entity.template ? { template: entity.template } : {}),
    ...(entity.contextMessageId ? { context: { message_id: entity.contextMessageId } } : {}),
    timestamp: entity.createdAt.toISOString(),
  };
}
