import type { CreateCompanyBody, CreateContactActivityBody, CreateContactBody, UpdateCompanyBody, UpdateContactBody } from '../dto/contacts.dto';
import type { CampaignAudience } from '../events/campaigns';
import type { CompanyRecord, ContactActivityRecord, ContactRecord } from '../events/contacts';
import type { DealsRpc } from './deals.rpc';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

/** Filters of `GET /api/v1/contacts` (CONTRACT.md §14); each narrows the list, all together narrow it by each. */
export interface ContactFilters {
  /** Searched in name, email and number (trigram match, any case). */
  q?: string;
  tag?: string;
  company_id?: string;
  opted_out?: boolean;
}

/** crm-service's patterns (CONTRACT.md §14): contacts and companies here, pipelines and deals in `deals.rpc.ts`. Bodies are checked again by crm-service. */
export interface CrmRpc extends DealsRpc {
  'contacts.create': { service: 'crm'; request: TenantScoped & { body: CreateContactBody }; response: ContactRecord };
  'contacts.list': { service: 'crm'; request: TenantScoped & ListQuery & ContactFilters; response: Page<ContactRecord> };
  'contacts.get': { service: 'crm'; request: TenantScoped & { id: string }; response: ContactRecord };
  'contacts.update': { service: 'crm'; request: TenantScoped & { id: string; body: UpdateContactBody }; response: ContactRecord };
  'contacts.delete': { service: 'crm'; request: TenantScoped & { id: string }; response: { deleted: true } };
  /** The contact's timeline, newest first (CONTRACT.md §14). */
  'contacts.activities': { service: 'crm'; request: TenantScoped & ListQuery & { id: string }; response: Page<ContactActivityRecord> };
  'contacts.add-activity': { service: 'crm'; request: TenantScoped & { id: string; body: CreateContactActivityBody }; response: ContactActivityRecord };
  'companies.create': { service: 'crm'; request: TenantScoped & { body: CreateCompanyBody }; response: CompanyRecord };
  'companies.list': { service: 'crm'; request: TenantScoped & ListQuery; response: Page<CompanyRecord> };
  'companies.get': { service: 'crm'; request: TenantScoped & { id: string }; response: CompanyRecord };
  'companies.update': { service: 'crm'; request: TenantScoped & { id: string; body: UpdateCompanyBody }; response: CompanyRecord };
  'companies.delete': { service: 'crm'; request: TenantScoped & { id: string }; response: { deleted: true } };
}

export type ContactImportStatus = 'queued' | 'running' | 'completed' | 'failed';

/** A CSV import (`GET /api/v1/contacts/import/{job_id}`, CONTRACT.md §14). `row` counts data rows from 1 (the header is row 0). */
export interface ContactImportJob {
  /** @idPrefix imp */
  id: string;
  status: ContactImportStatus;
  /**
   * Data rows in the file; null until the job has read it once.
   * @apiType integer
   */
  total: number | null;
  /** @apiType integer */
  created: number;
  /** @apiType integer */
  updated: number;
  failed: ContactImportFailure[];
  /** Why the whole file could not be read (status `failed`); null otherwise. */
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** A row of an import that was not taken, and why. */
export interface ContactImportFailure {
  /**
   * 1 = the first row after the header.
   * @apiType integer
   */
  row: number;
  error: string;
}

/** crm-service's import and export patterns (CONTRACT.md §14). */
export interface CrmImportRpc {
  /** Stores the CSV and queues its import: answered at once with the job's id. */
  'contacts.import': { service: 'crm'; request: TenantScoped & { csv: string }; response: { job_id: string } };
  'contacts.import-status': { service: 'crm'; request: TenantScoped & { job_id: string }; response: ContactImportJob };
  /**
   * A page of the export (oldest first, up to 1000): the gateway streams pages as CSV. `tag` keeps the contacts with
   * that tag (campaign-service resolves an audience by it in pages of 1000).
   */
  'contacts.export-page': { service: 'crm'; request: TenantScoped & ListQuery & { tag?: string }; response: Page<ContactRecord> };
  /**
   * How many contacts a campaign audience (CONTRACT.md §15) reaches now, counted in SQL (the dashboard's live count as
   * the tags change): `count` would be messaged, `opted_out` would be skipped.
   */
  'contacts.audience-count': { service: 'crm'; request: TenantScoped & { audience: CampaignAudience }; response: AudienceCount };
  /** The contact each captured lead is linked to (CONTRACT.md §14), for the leads the gateway lists; unlinked leads are left out. */
  'contacts.of-leads': { service: 'crm'; request: TenantScoped & { lead_ids: string[] }; response: Record<string, string> };
}

/** The answer of `POST /api/v1/campaigns/audience-count` (CONTRACT.md §9). */
export interface AudienceCount {
  /** Distinct numbers of the matching contacts that are not opted out: the messages a start would send. */
  count: number;
  /** Matching contacts that opted out: a start counts them as `skipped_opted_out`. */
  opted_out: number;
}
