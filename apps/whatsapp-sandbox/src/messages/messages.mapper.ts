import type { RichType } from '../cloud-api/rich-content';
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
  type: 'text' | 'template' | RichType;
  text?: { body: string };
  /** The content of a media, location or interactive message under its type's name, as sent (e.g. `image: {id, caption}`). */
  image?: Record<string, unknown>;
  document?: Record<string, unknown>;
  audio?: Record<string, unknown>;
  video?: Record<string, unknown>;
  sticker?: Record<string, unknown>;
  location?: Record<string, unknown>;
  interactive?: Record<string, unknown>;
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
    ...(entity.content ? { [entity.type]: entity.content } : {}),
    ...(entity.contextMessageId ? { context: { message_id: entity.contextMessageId } } : {}),
    timestamp: entity.createdAt.toISOString(),
  };
}
