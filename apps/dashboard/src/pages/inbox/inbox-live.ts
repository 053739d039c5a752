import type { InboxFilter } from '../../api';
import type { LiveRefresh } from '../../components/live-query';
import type { LiveEvent } from '../../session/live-events';

/** What changes the inbox: `conversation.updated` (a message either way, state, assignee, unread, a note), a handoff, a lead's name. */
export const INBOX_LIVE: LiveRefresh = {
  events: ['conversation.updated', 'conversation.handoff', 'message.received', 'lead.captured', 'lead.updated'],
};

/** A thread follows the inbox and its messages' statuses too (the ticks); the list does not show them. */
export const THREAD_LIVE: LiveRefresh = { events: [...INBOX_LIVE.events, 'message.status'] };

/**
 * A contact's name edited in crm-service reaches the inbox through responder-service a moment after `contact.updated`,
 * and no event says when: the inbox is read again a few times after it (only after it: each read counts against the
 * tenant's daily quota).
 */
export const CONTACT_NAME_LIVE: LiveRefresh = { events: ['contact.updated'], delaysMs: [500, 2000, 5000] };

/** The query keys of the inbox: every list and thread under `['inbox']`, so one invalidation reaches them all. */
export const inboxKey = (filter: InboxFilter) => ['inbox', 'list', filter] as const;
export const threadKey = (id: string) => ['inbox', 'thread', id] as const;

/** Whether an event is about one conversation (`conversation.updated` carries it whole; the others name it by id). */
export function concernsConversation(event: LiveEvent, id: string): boolean {
  const conversation = event.data.conversation as { id?: unknown } | undefined;
  const named = conversation?.id ?? event.data.conversation_id;
  // Events that do not name their conversation (a lead's name, a message's status) refresh every open thread.
  return named === undefined || named === id;
}
