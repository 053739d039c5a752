import { MessageEntity } from './message.entity';

/** A `messages` row as raw SQL answers it (`RETURNING *`, `SELECT m.*`): snake_case, JSON parsed by the driver. */
export interface MessageRow {
  id: string;
  seq: string;
  tenant_id: string;
  direction: MessageEntity['direction'];
  channel: MessageEntity['channel'];
  subject: string | null;
  html: string | null;
  channel_id: string | null;
  from: string | null;
  to: string;
  type: MessageEntity['type'];
  body: string;
  template: MessageEntity['template'];
  status: MessageEntity['status'];
  status_history: MessageEntity['statusHistory'];
  error: MessageEntity['error'];
  provider_message_id: string | null;
  send_attempts: number;
  announced_statuses: number;
  published: boolean;
  from_campaign: boolean | null;
  created_at: Date;
  updated_at: Date;
}

/** The entity of a raw row: the hot paths write with raw SQL (batched), and the rest of the code reads entities. */
export function messageFromRow(row: MessageRow): MessageEntity {
  return Object.assign(new MessageEntity(), {
    id: row.id,
    seq: row.seq,
    tenantId: row.tenant_id,
    direction: row.direction,
    channel: row.channel ?? 'whatsapp',
    subject: row.subject ?? null,
    html: row.html ?? null,
    channelId: row.channel_id,
    from: row.from,
    to: row.to,
    type: row.type,
    body: row.body,
    template: row.template,
    status: row.status,
    statusHistory: row.status_history,
    error: row.error,
    providerMessageId: row.provider_message_id,
    sendAttempts: row.send_attempts,
    announcedStatuses: row.announced_statuses,
    published: row.published,
    fromCampaign: row.from_campaign ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}
