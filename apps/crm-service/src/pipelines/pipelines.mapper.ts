import type { PipelineRecord } from '@parley/contracts';

/** A `pipelines` row as raw SQL returns it. */
export interface PipelineRow {
  id: string;
  tenant_id: string;
  name: string;
  stages: string[];
  is_default: boolean;
  created_at: Date;
}

export const PIPELINE_COLUMNS = 'id, tenant_id, name, stages, is_default, created_at';

export function toPipelineRecord(row: PipelineRow): PipelineRecord {
  return { id: row.id, name: row.name, stages: row.stages, is_default: row.is_default, created_at: new Date(row.created_at).toISOString() };
}
