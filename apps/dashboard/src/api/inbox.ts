import type { ParleyClient, components } from '@parley/api-client';
import { unwrap } from './http';

// The inbox: conversations people answer (CONTRACT.md §12), with their teams, labels and SLA targets (§18).

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
  /** A team's conversations (`tea_…`); absent: every team's and none's. */
  team_id?: string;
  /** Conversations carrying this label; absent: with any labels or none. */
  label?: string;
  /** Conversations whose notes mention a member (`me` or `usr_…`). */
  mentioned?: string;
}

/**
 * What a change of a conversation may set: its state, assignee, team (null: out of any) and labels, the whole list
 * (the generated body types them `unknown[]`; they are strings).
 */
export type ConversationChange = Omit<Schemas['UpdateConversationBody'], 'tenant_id' | 'labels'> & { labels?: string[] };

/** A conversation's SLA targets for this handoff, when its team has them. */
export type ConversationSla = NonNullable<InboxConversation['sla']>;
/** A label: 1 to 40 lower-case letters, digits, `-` or `_`, starting with a letter or digit (CONTRACT.md §18). */
export const LABEL_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;
/** Labels a conversation carries at most. */
export const MAX_LABELS = 20;

export function createInboxApi(api: ParleyClient) {
  return {
    inbox: (filter: InboxFilter) => unwrap(api.GET('/api/v1/conversations', { params: { query: { ...filter, limit: 100 } } })),
    thread: (id: string) => unwrap(api.GET('/api/v1/conversations/{id}', { params: { path: { id } } })),
    updateConversation: (id: string, body: ConversationChange) =>
      unwrap(api.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body })),
    reply: (id: string, message: string) => unwrap(api.POST('/api/v1/conversations/{id}/messages', { params: { path: { id } }, body: { message } })),
    addNote: (id: string, text: string) => unwrap(api.POST('/api/v1/conversations/{id}/notes', { params: { path: { id } }, body: { text } })),
  };
}
