import type { AppointmentRecord, LeadRecord } from '../events/engagement';
import type { ListQuery, Page, TenantScoped } from './rpc';

/** `POST /api/v1/agents/{name}/test` answer (CONTRACT.md §3). */
export interface AgentTestResult {
  reply: string;
  skill: string | null;
  handoff: boolean;
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
