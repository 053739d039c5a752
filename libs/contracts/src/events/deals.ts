import type { EventEnvelope } from './envelope';

/** The stages of a tenant's default pipeline, in order (CONTRACT.md §14). */
export const DEFAULT_PIPELINE_STAGES = ['new', 'qualified', 'proposal', 'won', 'lost'] as const;

/** A sales pipeline (`GET /api/v1/pipelines`, CONTRACT.md §14): its stages in order, the first one where deals open. */
export interface PipelineRecord {
  id: string;
  name: string;
  stages: string[];
  /** The tenant's default pipeline: where deals go when none is named, and where captured leads open theirs. */
  is_default: boolean;
  created_at: string;
}

/** An amount of money: a decimal string (never a float) and its ISO 4217 currency. */
export interface Money {
  /** e.g. "1234567.89": up to 15 digits before the point and 4 after. */
  amount: string;
  currency: string;
}

/** A deal (`GET /api/v1/deals/{id}`, CONTRACT.md §14). */
export interface DealRecord {
  id: string;
  title: string;
  contact_id: string;
  company_id: string | null;
  pipeline_id: string;
  /** One of the pipeline's stages. */
  stage: string;
  /** null for a deal a captured lead opened, until someone prices it. */
  value: Money | null;
  /** The team member who owns it (usr_…). */
  owner: string | null;
  /** When it is expected to close, a calendar date (`2026-03-31`); null until someone says. Absent from events published before it existed. */
  expected_close_date?: string | null;
  /** The lead that opened it, for deals opened by `lead.captured`. */
  lead_id: string | null;
  created_at: string;
  updated_at: string;
}

/** `deal.created` (public webhook body): by the API or opened by a captured lead. */
export interface DealCreatedData {
  event: 'deal.created';
  tenant_id: string;
  deal: DealRecord;
  at: string;
}

/** `deal.stage_changed` (public webhook body): `deal` as it now is, `previous_stage` where it was. */
export interface DealStageChangedData {
  event: 'deal.stage_changed';
  tenant_id: string;
  deal: DealRecord;
  previous_stage: string;
  at: string;
}

export type DealCreatedEvent = EventEnvelope<'deal.created', DealCreatedData>;
export type DealStageChangedEvent = EventEnvelope<'deal.stage_changed', DealStageChangedData>;
