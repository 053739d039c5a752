import type { UpsertAgentBody } from '../dto/agents.dto';
import type { AgentRecord, Booking, Faq, Skill } from '../events/agents';
import type { DocumentImportRecord, DocumentRecord } from '../events/documents';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

/** One kept version of an agent (`GET /api/v1/agents/{name}/versions`, CONTRACT.md §9). */
export interface AgentVersionSummary {
  /** @apiType integer */
  version: number;
  created_at: string;
}

/** A kept version with the body it was set with: PUT that body to roll back to it. */
export interface AgentVersionRecord extends AgentVersionSummary {
  body: { name: string; instruction: string; greeting: string; skills: Skill[]; faqs: Faq[]; booking: Booking | null };
}

/**
 * What `POST /api/v1/agents/{name}/documents` received: the JSON body as sent (agent-service validates it), or one
 * uploaded file (the gateway checked its size and declared type; agent-service checks its content).
 */
export type DocumentUpload =
  | { kind: 'json'; body: unknown }
  | { kind: 'file'; title: string | null; filename: string | null; content_type: string; data_base64: string };

/** agent-service's request-reply patterns. */
export interface AgentsRpc {
  'agents.upsert': { service: 'agents'; request: TenantScoped & { name: string; body: UpsertAgentBody }; response: { created: boolean; agent: AgentRecord } };
  'agents.get': { service: 'agents'; request: TenantScoped & { name: string }; response: AgentRecord };
  'agents.list': { service: 'agents'; request: TenantScoped & ListQuery; response: Page<AgentRecord> };
  'agents.delete': { service: 'agents'; request: TenantScoped & { name: string }; response: { deleted: true } };
  /**
   * FAQs added to the live agent as a new version (a knowledge gap answered, CONTRACT.md §19): an FAQ whose question the
   * agent already has (case and spacing ignored) gets the new answer instead of a second entry, so asking twice is safe.
   */
  'agents.add-faqs': { service: 'agents'; request: TenantScoped & { name: string; faqs: Faq[] }; response: AgentRecord };
  /** Versions of the live agent of that name, newest first; the cursor is the last version of the previous page. */
  'agents.versions': { service: 'agents'; request: TenantScoped & ListQuery & { name: string }; response: Page<AgentVersionSummary> };
  'agents.version': { service: 'agents'; request: TenantScoped & { name: string; version: number }; response: AgentVersionRecord };
  /** Documents of an agent (CONTRACT.md §11): `agent` is the agent's name. */
  'documents.create': { service: 'agents'; request: TenantScoped & { agent: string; upload: DocumentUpload }; response: DocumentRecord };
  'documents.list': { service: 'agents'; request: TenantScoped & ListQuery & { agent: string }; response: Page<DocumentRecord> };
  'documents.get': { service: 'agents'; request: TenantScoped & { agent: string; id: string }; response: DocumentRecord };
  'documents.delete': { service: 'agents'; request: TenantScoped & { agent: string; id: string }; response: { deleted: true } };
  /** A sitemap import (CONTRACT.md §19): queued, worked in the background; `body` is the validated JSON document body. */
  'documents.import': { service: 'agents'; request: TenantScoped & { agent: string; body: unknown }; response: DocumentImportRecord };
  'documents.import-get': { service: 'agents'; request: TenantScoped & { agent: string; id: string }; response: DocumentImportRecord };
}
