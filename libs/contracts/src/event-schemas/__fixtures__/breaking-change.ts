import type { EventEnvelope, MessageError, MessageStatusData } from '../../events';

/**
 * A careless edit of `message.status`, as the compatibility test feeds it to the checker: `to` renamed to
 * `recipient`, `error` made required, and `status` narrowed.
 */
interface BrokenMessageStatusData extends Omit<MessageStatusData, 'to' | 'error' | 'status'> {
  recipient: string;
  error: MessageError;
  status: 'sent' | 'delivered' | 'read';
}

export interface BrokenEventsByTopic {
  'message.status': EventEnvelope<'message.status', BrokenMessageStatusData>;
}
