import type { AppointmentRecord, LeadRecord } from '../events/engagement';
import type { ListQuery, Page, TenantScoped } from './rpc';

/** A piece of the agent's knowledge a reply used (CONTRACT.md §11). */
export interface KnowledgeSource {
  type: 'faq' | 'document' | 'instruction';
  /** `faq-1` (the agent's first FAQ), a document passage's `doc_…#n`, or `instruction-1` (its first fact). */
  id: string;
  /** The FAQ's question, the document's title and headings, or `Instruction`. */
  title: string;
  /** The part of it the reply used. */
  excerpt: string;
}

/** `POST /api/v1/agents/{name}/test` answer (CONTRACT.md §3, §11). */
export interface AgentTestResult {
  reply: string;
  skill: string | null;
  handoff: boolean;
  /** The customer's language the agent answered in: a BCP 47 primary tag (`en`, `es`, `pt`, `fr`, `de`). */
  language: string;
  /** The knowledge the reply used; empty when none. */
  sources: KnowledgeSource[];
}

export interface ConversationSummary {
  id: string;
  customer: string;
  channel_id: string;
  state: 'active' | 'handed_off';
  started_at: string;
  last_message_at: string;
}

export interface ConversationTurnRecord {
  message_id: string;
  role: 'customer' | 'agent';
  text: string;
  at: string;
}

/** `GET /api/v1/conversations/{id}`: the conversation with its remembered messages, oldest first. */
export interface ConversationRecord extends ConversationSummary {
  messages: ConversationTurnRecord[];
}

/** responder-service's request-reply patterns. */
export interface ResponderRpc {
  'replies.preview': {
    service: 'responder';
    request: TenantScoped & { agent: string; message: string; from: string | null };
    response: AgentTestResult;
  };
  'conversations.list': { service: 'responder'; request: TenantScoped & ListQuery; response: Page<ConversationSummary> };
  'conversations.get': { service: 'responder'; request: TenantScoped & { id: string }; response: ConversationRecord };
  'conversations.release': { service: 'responder'; request: TenantScoped & { id: string }; response: ConversationSummary };
  'leads.list': { service: 'responder'; request: TenantScoped & ListQuery; response: Page<LeadRecord> };
  'appointments.list': { service: 'responder'; request: TenantScoped & ListQuery; response: Page<AppointmentRecord> };
}
