import type { Problem } from '../problem';
import type { RpcService } from '../topics';
import type { AgentsRpc } from './agents.rpc';
import type { BillingRpc } from './billing.rpc';
import type { CampaignsRpc } from './campaigns.rpc';
import type { CrmImportRpc, CrmRpc } from './crm.rpc';
import type { MediaRpc } from './media.rpc';
import type { MessagingRpc } from './messaging.rpc';
import type { ResponderRpc } from './responder.rpc';
import type { ReportsRpc } from './reports.rpc';
import type { TeamsRpc } from './teams.rpc';
import type { TemplatesRpc } from './templates.rpc';
import type { WebhooksRpc } from './webhooks.rpc';

export type { ListQuery, Page, TenantScoped } from './rpc-shapes';

/** Reply of a request-reply call: the result, or a problem that the gateway answers with as it is. */
export type RpcResult<T> = { ok: true; data: T } | { ok: false; problem: Problem };

/**
 * Request-reply patterns: which service owns each, and its request and response types. Each owning service keeps
 * its patterns in its own file (`rpc/<service>.rpc.ts`); the typed client and the handlers agree by construction.
 */
export interface RpcPatterns extends AgentsRpc, MessagingRpc, WebhooksRpc, ResponderRpc, TemplatesRpc, MediaRpc, CrmRpc, CrmImportRpc, BillingRpc, CampaignsRpc, TeamsRpc, ReportsRpc {}

export type RpcPattern = keyof RpcPatterns;
export type RpcRequest<P extends RpcPattern> = RpcPatterns[P]['request'];
export type RpcResponse<P extends RpcPattern> = RpcPatterns[P]['response'];

/** Which service answers a pattern: the prefix before the first dot names its owner. */
export const RPC_OWNERS: Record<string, RpcService> = {
  agents: 'agents',
  documents: 'agents',
  channels: 'messaging',
  messages: 'messaging',
  templates: 'messaging',
  media: 'messaging',
  webhooks: 'webhooks',
  deliveries: 'webhooks',
  conversations: 'responder',
  'canned-replies': 'responder',
  teams: 'responder',
  'routing-rules': 'responder',
  presence: 'responder',
  reports: 'responder',
  gaps: 'responder',
  analytics: 'responder',
  'agent-tests': 'responder',
  leads: 'responder',
  appointments: 'responder',
  'llm-settings': 'responder',
  replies: 'responder',
  billing: 'billing',
  contacts: 'crm',
  companies: 'crm',
  pipelines: 'crm',
  deals: 'crm',
  activities: 'crm',
  campaigns: 'campaigns',
};

export function rpcOwner(pattern: string): RpcService {
  const owner = RPC_OWNERS[pattern.split('.')[0]];
  if (!owner) throw new Error(`no service owns the RPC pattern "${pattern}"`);
  return owner;
}
