import type { ParleyClient, components } from '@parley/api-client';
import { unwrap } from './http';

// The inbox: conversations people answer (CONTRACT.md §12).

type Schemas = components['schemas'];
export type InboxConversation = Schemas['Conversation'];
export type InboxState = InboxConversation['state'];
/** A conversation with its thread and its notes, each oldest first. */
export type InboxThread = Schemas['ConversationDetail'];
export type ThreadMessage = Schemas['ConversationMessage'];
/** What became of a message to the customer: the thread's ticks. */
export type DeliveryStatus = NonNullable<ThreadMessage['status']>;
/** Who wrote a message: the customer, the bot (by its agent's name), a team member, or a program through the API. */
export type Author = Schemas['ConversationMessage']['author'];

export interface InboxFilter {
  state?: InboxState;
  /** A member id, `me` (the signed-in member), or `none` (unassigned); absent: anyone. */
  assignee?: string;
  /** A channel kind (whatsapp, sms, email, voice) or a channel id; absent: every channel. */
  channel?: string;
  q?: string;
  /** `customer`: real customers only; `playground`: the playground's only; absent: both. */
  source?: 'customer' | 'playground';
}

export function createInboxApi(api: ParleyClient) {
  return {
    inbox: (filter: InboxFilter) => unwrap(api.GET('/api/v1/conversations', { params: { query: { ...filter, limit: 100 } } })),
    thread: (id: string) => unwrap(api.GET('/api/v1/conversations/{id}', { params: { path: { id } } })),
    updateConversation: (id: string, body: { state?: InboxState; assignee?: string | null }) =>
      unwrap(api.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body })),
    reply: (id: string, message: string) => unwrap(api.POST('/api/v1/conversations/{id}/messages', { params: { path: { id } }, body: { message } })),
    addNote: (id: string, text: string) => unwrap(api.POST('/api/v1/conversations/{id}/notes', { params: { path: { id } }, body: { text } })),
  };
}
