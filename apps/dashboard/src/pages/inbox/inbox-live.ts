import type { LiveRefresh } from '../../components/use-async';
import type { LiveEvent } from '../../session/live-events';

/**
 * What changes the inbox: `conversation.updated` (a message either way, state, assignee, unread, a note), a handoff,
 * and a lead's name (the contact's name in the list).
 */
export const INBOX_LIVE: LiveRefresh = {
  events: ['conversation.updated', 'conversation.handoff', 'message.received', 'lead.captured', 'lead.updated'],
};

/** Whether an event is about one conversation (`conversation.updated` carries it whole; the others name it by id). */
export function concernsConversation(event: LiveEvent, id: string): boolean {
  const conversation = event.data.conversation as { id?: unknown } | undefined;
  const named = conversation?.id ?? event.data.conversation_id;
  // Events that do not name their conversation (a lead's name) refresh every open thread.
  return named === undefined || named === id;
}
