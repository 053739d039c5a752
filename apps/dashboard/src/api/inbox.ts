import type { ParleyClient } from '@parley/api-client';
import { loose, unwrap } from './http';

// The inbox: conversations people answer (CONTRACT.md §12).

export type InboxState = 'active' | 'handed_off' | 'closed';

/** Who wrote a message: the customer, the bot (by its agent's name), a team member, or a program through the API. */
export type Author = { type: 'customer' } | { type: 'agent'; name?: string } | { type: 'member'; id: string } | { type: 'api' };

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
  channel: string;
  channel_id: string;
  /** When the customer last wrote. */
  last_message_at: string;
  /** The customer's last message + 24 h: after it, only a template may be sent. */
  window_expires_at: string | null;
}

export interface ThreadMessage {
  message_id: string;
  text: string;
  at: string;
  author: Author;
  role: 'customer' | 'agent' | 'member';
}

export interface ThreadNote {
  id: string;
  text: string;
  at: string;
  author: Author;
}

/** A conversation with its thread and its notes, each oldest first. */
export interface InboxThread extends InboxConversation {
  messages: ThreadMessage[];
  notes: ThreadNote[];
}

export interface InboxFilter {
  state?: InboxState;
  /** A member id, `me` (the signed-in member), or `none` (unassigned); absent: anyone. */
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
