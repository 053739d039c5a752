import type { CreateDealBody, CreatePipelineBody, UpdateDealBody } from '../dto/deals.dto';
import type { DealRecord, PipelineRecord } from '../events/deals';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

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
  'deals.create': { service: 'crm'; request: TenantScoped & { body: CreateDealBody }; response: DealRecord };
  'deals.list': { service: 'crm'; request: TenantScoped & ListQuery & DealFilters; response: Page<DealRecord> };
  'deals.get': { service: 'crm'; request: TenantScoped & { id: string }; response: DealRecord };
  'deals.update': { service: 'crm'; request: TenantScoped & { id: string; body: UpdateDealBody }; response: DealRecord };
  'deals.delete': { service: 'crm'; request: TenantScoped & { id: string }; response: { deleted: true } };
}
