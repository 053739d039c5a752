import type { UpsertAgentBody } from '../dto/agents.dto';
import type { AgentRecord } from '../events/agents';
import type { ListQuery, Page, TenantScoped } from './rpc';

/** agent-service's request-reply patterns. */
export interface AgentsRpc {
  'agents.upsert': { service: 'agents'; request: TenantScoped & { name: string; body: UpsertAgentBody }; response: { created: boolean; agent: AgentRecord } };
  'agents.get': { service: 'agents'; request: TenantScoped & { name: string }; response: AgentRecord };
  'agents.list': { service: 'agents'; request: TenantScoped & ListQuery; response: Page<AgentRecord> };
  'agents.delete': { service: 'agents'; request: TenantScoped & { name: string }; response: { deleted: true } };
}
