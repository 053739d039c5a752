import type { LiveRefresh } from '../../components/use-async';

/**
 * What changes the inbox: a message in or out, a status, a handoff, any change of a conversation (state, assignee, a
 * note, read), and a lead's name (the contact's name in the list).
 */
export const INBOX_LIVE: LiveRefresh = {
  events: [
    'message.received',
    'message.status',
    'conversation.handoff',
    'conversation.updated',
    'conversation.message',
    'conversation.note',
    'conversation.assigned',
    'conversation.closed',
    'lead.captured',
    'lead.updated',
  ],
};
