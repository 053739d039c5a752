import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { PIPELINE_COLUMNS, type PipelineRow } from './pipelines.mapper';

/** Tenants' sales pipelines as stored; the tenant id first. Reads that are part of a deal's write take its `tx`. */
@Injectable()
export class PipelinesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The default pipeline first, then by age. */
  list(tenantId: string): Promise<PipelineRow[]> {
    return this.db.query(`SELECT ${PIPELINE_COLUMNS} FROM pipelines WHERE tenant_id = $1 ORDER BY is_default DESC, id`, [tenantId]);
  }

  async insert(tenantId: string, pipeline: { id: string; name: string; stages: string[] }): Promise<PipelineRow> {
    const [row]: PipelineRow[] = await this.db.query(`INSERT INTO pipelines (id, tenant_id, name, stages) VALUES ($1, $2, $3, $4) RETURNING ${PIPELINE_COLUMNS}`, [
      pipeline.id,
      tenantId,
      pipeline.name,
      pipeline.stages,
    ]);
    return row;
  }

  async findDefault(tenantId: string, tx: EntityManager = this.db.manager): Promise<PipelineRow | null> {
    const [row]: PipelineRow[] = await tx.query(`SELECT ${PIPELINE_COLUMNS} FROM pipelines WHERE tenant_id = $1 AND is_default`, [tenantId]);
    return row ?? null;
  }

  /** Makes the tenant's default pipeline unless it has one (a racing maker's stays: one default per tenant). */
  async insertDefault(tenantId: string, pipeline: { id: string; name: string; stages: string[] }, tx: EntityManager = this.db.manager): Promise<void> {
    await tx.query(
      `INSERT INTO pipelines (id, tenant_id, name, stages, is_default) VALUES ($1, $2, $3, $4, true)
       ON CONFLICT (tenant_id) WHERE is_default DO NOTHING`,
      [pipeline.id, tenantId, pipeline.name, pipeline.stages],
    );
  }

  async find(tenantId: string, id: string, tx: EntityManager = this.db.manager): Promise<PipelineRow | null> {
    const [row]: PipelineRow[] = await tx.query(`SELECT ${PIPELINE_COLUMNS} FROM pipelines WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return row ?? null;
  }
}
