import type { CreateDealBody, CreatePipelineBody, UpdateDealBody } from '../dto/deals.dto';
import type { DealRecord, PipelineRecord } from '../events/deals';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

// Every field present: `expected_close_date` is optional in `DealRecord` only for `deal.*` events published before it
// existed.
/** A deal (`GET /api/v1/deals/{id}`, CONTRACT.md §14). */
export type DealView = DealRecord & { expected_close_date: string | null };

/** Filters of `GET /api/v1/deals`; each narrows the list. */
export interface DealFilters {
  pipeline_id?: string;
  stage?: string;
  contact_id?: string;
}

/** crm-service's pipeline and deal patterns (CONTRACT.md §14). Bodies are checked again by crm-service. */
export interface DealsRpc {
  /** Every pipeline of the tenant, the default one (made on first use) first. */
  'pipelines.list': { service: 'crm'; request: TenantScoped; response: { data: PipelineRecord[] } };
  'pipelines.create': { service: 'crm'; request: TenantScoped & { body: CreatePipelineBody }; response: PipelineRecord };
  'deals.create': { service: 'crm'; request: TenantScoped & { body: CreateDealBody }; response: DealView };
  'deals.list': { service: 'crm'; request: TenantScoped & ListQuery & DealFilters; response: Page<DealView> };
  'deals.get': { service: 'crm'; request: TenantScoped & { id: string }; response: DealView };
  'deals.update': { service: 'crm'; request: TenantScoped & { id: string; body: UpdateDealBody }; response: DealView };
  'deals.delete': { service: 'crm'; request: TenantScoped & { id: string }; response: { deleted: true } };
}
