import type { DealView } from '@parley/contracts';

/** A `deals` row as raw SQL returns it (`amount` is numeric, which pg hands over as the exact decimal text). */
export interface DealRow {
  id: string;
  tenant_id: string;
  title: string;
  contact_id: string;
  company_id: string | null;
  pipeline_id: string;
  stage: string;
  amount: string | null;
  currency: string | null;
  owner: string | null;
  /** `YYYY-MM-DD` (selected as text: a date has no zone to shift it). */
  expected_close_date: string | null;
  lead_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const DEAL_COLUMNS = 'id, tenant_id, title, contact_id, company_id, pipeline_id, stage, amount::text AS amount, currency, owner, expected_close_date::text AS expected_close_date, lead_id, created_at, updated_at';

export function toDealRecord(row: DealRow): DealView {
  return {
    id: row.id,
    title: row.title,
    contact_id: row.contact_id,
    company_id: row.company_id,
    pipeline_id: row.pipeline_id,
    stage: row.stage,
    value: row.amount === null || row.currency === null ? null : { amount: row.amount, currency: row.currency },
    owner: row.owner,
    expected_close_date: row.expected_close_date,
    lead_id: row.lead_id,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
