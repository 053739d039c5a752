import type { UpsertAgentBody } from '../dto/agents.dto';
import type { AgentRecord, Booking, Faq, Skill } from '../events/agents';
import type { ListQuery, Page, TenantScoped } from './rpc';

/** One kept version of an agent (`GET /api/v1/agents/{name}/versions`, CONTRACT.md §9). */
export interface AgentVersionSummary {
  version: number;
  created_at: string;
}

/** A kept version with the body it was set with: PUT that body to roll back to it. */
export interface AgentVersionRecord extends AgentVersionSummary {
  body: { name: string; instruction: string; greeting: string; skills: Skill[]; faqs: Faq[]; booking: Booking | null };
}

/** agent-service's request-reply patterns. */
export interface AgentsRpc {
  'agents.upsert': { service: 'agents'; request: TenantScoped & { name: string; body: UpsertAgentBody }; response: { created: boolean; agent: AgentRecord } };
  'agents.get': { service: 'agents'; request: TenantScoped & { name: string }; response: AgentRecord };
  'agents.list': { service: 'agents'; request: TenantScoped & ListQuery; response: Page<AgentRecord> };
  'agents.delete': { service: 'agents'; request: TenantScoped & { name: string }; response: { deleted: true } };
  /** Versions of the live agent of that name, newest first; the cursor is the last version of the previous page. */
  'agents.versions': { service: 'agents'; request: TenantScoped & ListQuery & { name: string }; response: Page<AgentVersionSummary> };
  'agents.version': { service: 'agents'; request: TenantScoped & { name: string; version: number }; response: AgentVersionRecord };
}
