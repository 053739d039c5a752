import { richStandIn, type MessageRecord, type OutboundContent } from '@parley/contracts';
import type { MessageEntity } from './message.entity';

/** The public message record (CONTRACT.md §4). */
export function toMessageRecord(entity: MessageEntity): MessageRecord {
  return {
    message_id: entity.id,
    direction: entity.direction,
    channel: entity.channel,
    from: entity.from ?? '',
    to: entity.to,
    type: entity.type,
    message: entity.body,
    status: entity.status,
    status_history: entity.statusHistory.map((e) => ({ status: e.status, at: e.at })),
    ...(entity.error ? { error: { code: entity.error.code, title: entity.error.title } } : {}),
    ...(entity.attachments ? { attachments: entity.attachments } : {}),
    ...(entity.authentication ? { authentication: entity.authentication } : {}),
    created_at: entity.createdAt.toISOString(),
  };
}

/** What an outbound message's `message` field shows: the text, or a stand-in naming the template. */
export function outboundBody(content: OutboundContent): string {
  if (content.type === 'text') return content.text;
  return content.type === 'template' ? `[template] ${content.template.name}` : richStandIn(content);
}
