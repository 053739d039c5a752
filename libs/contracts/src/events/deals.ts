import type { EventEnvelope } from './envelope';

/** The stages of a tenant's default pipeline, in order (CONTRACT.md §14). */
export const DEFAULT_PIPELINE_STAGES = ['new', 'qualified', 'proposal', 'won', 'lost'] as const;

/** A sales pipeline (`GET /api/v1/pipelines`, CONTRACT.md §14): its stages in order, the first one where deals open. */
export interface PipelineRecord {
  /** @idPrefix pip */
  id: string;
  name: string;
  /** In order; deals open in the first. */
  stages: string[];
  /**
   * The tenant's default pipeline (new, qualified, proposal, won, lost), made on first use: where deals go when none is
   * named, and where captured leads open theirs.
   */
  is_default: boolean;
  created_at: string;
}

/** An amount of money: a decimal string (never a float) and its ISO 4217 currency. */
export interface Money {
  // Its pattern in the API's schema is the deals DTO's rule, DEAL_AMOUNT (api-schemas/generate.ts).
  /**
   * e.g. "1234567.89": up to 15 digits before the point and 4 after.
   * @apiSchema {examples: ['1234567.89']}
   */
  amount: string;
  /**
   * @apiFormat currency
   * @apiSchema {examples: ['EUR']}
   * @apiDescription ISO 4217.
   */
  currency: string;
}

/** A deal (`GET /api/v1/deals/{id}`, CONTRACT.md §14). */
export interface DealRecord {
  /** @idPrefix del */
  id: string;
  title: string;
  /** @idPrefix ctc */
  contact_id: string;
  /** @idPrefix cmp */
  company_id: string | null;
  /** @idPrefix pip */
  pipeline_id: string;
  /** One of the pipeline's stages. */
  stage: string;
  /** null for a deal a captured lead opened, until someone prices it. */
  value: Money | null;
  /**
   * The team member who owns it (usr_…).
   * @idPrefix usr
   */
  owner: string | null;
  /**
   * When it is expected to close, a calendar date (`2026-03-31`); null until someone says. Absent from events published before it existed.
   * @apiFormat date
   * @apiSchema {examples: ['2026-03-31']}
   * @apiDescription When it is expected to close (a calendar date); null until someone says.
   */
  expected_close_date?: string | null;
  /**
   * The lead that opened it, for deals opened by `lead.captured`.
   * @idPrefix led
   */
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
