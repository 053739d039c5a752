import type { ParleyClient } from '@parley/api-client';
import { loose, unwrap } from './http';

// The inbox: conversations people answer (CONTRACT.md §12).

export type InboxState = 'active' | 'handed_off' | 'closed';

/** Who wrote a message: the customer, the bot (by its agent's name), or a team member. */
export type Author = { type: 'customer' } | { type: 'agent'; name?: string } | { type: 'member'; id: string; name?: string };

export interface InboxConversation {
  id: string;
  state: InboxState;
  /** A team member's id, or null. */
  assignee: string | null;
  unread: number;
  last_message: { text: string; at: string; author?: Author } | null;
  /** The lead's name when the agent learnt it. */
  contact_name: string | null;
  customer: string;
  channel?: string;
  channel_id?: string;
  last_message_at?: string;
  /** When the customer's 24-hour service window closes (null: closed, or never opened). */
  window_expires_at: string | null;
}

export interface ThreadMessage {
  message_id?: string;
  id?: string;
  text: string;
  at: string;
  author: Author;
  /** The older shape, before authors: `customer` | `agent`. */
  role?: 'customer' | 'agent';
}

export interface ThreadNote {
  id: string;
  text: string;
  at: string;
  author: Author;
}

export interface InboxThread extends InboxConversation {
  messages: ThreadMessage[];
  notes?: ThreadNote[];
}

export interface InboxFilter {
  state?: InboxState;
  /** A member id, `me`, or `none` (unassigned); absent: anyone. */
  assignee?: string;
  q?: string;
}

export function createInboxApi(client: ParleyClient) {
  const api = loose(client);
  return {
    inbox: (filter: InboxFilter) =>
      unwrap(api.GET('/api/v1/conversations', { params: { query: { ...filter, limit: 100 } } })) as Promise<{ data: InboxConversation[]; next_cursor: string | null }>,
    thread: (id: string) => unwrap(api.GET('/api/v1/conversations/{id}', { params: { path: { id } } })) as Promise<InboxThread>,
    updateConversation: (id: string, body: { state?: InboxState; assignee?: string | null }) =>
      unwrap(api.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body })) as Promise<InboxConversation>,
    reply: (id: string, message: string) => unwrap(api.POST('/api/v1/conversations/{id}/messages', { params: { path: { id } }, body: { message } })),
    addNote: (id: string, text: string) => unwrap(api.POST('/api/v1/conversations/{id}/notes', { params: { path: { id } }, body: { text } })),
  };
}
