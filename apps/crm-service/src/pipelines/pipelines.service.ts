import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CreatePipelineBody, DEFAULT_PIPELINE_STAGES, hasPrefix, newId, validationProblem, type PipelineRecord } from '@parley/contracts';
import { ProblemException, validateDto } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { PIPELINE_COLUMNS, toPipelineRecord, type PipelineRow } from './pipelines.mapper';

/** Tenants' sales pipelines (CONTRACT.md §14); each tenant has a default one, made the first time it is needed. */
@Injectable()
export class PipelinesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every pipeline of the tenant, the default one first, then by age. */
  async list(tenantId: string): Promise<{ data: PipelineRecord[] }> {
    await this.defaultOf(this.db.manager, tenantId);
    const rows: PipelineRow[] = await this.db.query(`SELECT ${PIPELINE_COLUMNS} FROM pipelines WHERE tenant_id = $1 ORDER BY is_default DESC, id`, [tenantId]);
    return { data: rows.map(toPipelineRecord) };
  }

  async create(tenantId: string, rawBody: unknown): Promise<PipelineRecord> {
    const body = await validateDto(CreatePipelineBody, rawBody);
    const [row]: PipelineRow[] = await this.db.query(
      `INSERT INTO pipelines (id, tenant_id, name, stages) VALUES ($1, $2, $3, $4) RETURNING ${PIPELINE_COLUMNS}`,
      [newId('pip'), tenantId, body.name, body.stages],
    );
    return toPipelineRecord(row);
  }

  /** The tenant's default pipeline (new, qualified, proposal, won, lost), made now if it has none; racing makers agree. */
  async defaultOf(manager: EntityManager, tenantId: string): Promise<PipelineRow> {
    const [existing]: PipelineRow[] = await manager.query(`SELECT ${PIPELINE_COLUMNS} FROM pipelines WHERE tenant_id = $1 AND is_default`, [tenantId]);
    if (existing) return existing;
    await manager.query(
      `INSERT INTO pipelines (id, tenant_id, name, stages, is_default) VALUES ($1, $2, 'Sales', $3, true)
       ON CONFLICT (tenant_id) WHERE is_default DO NOTHING`,
      [newId('pip'), tenantId, [...DEFAULT_PIPELINE_STAGES]],
    );
    const [made]: PipelineRow[] = await manager.query(`SELECT ${PIPELINE_COLUMNS} FROM pipelines WHERE tenant_id = $1 AND is_default`, [tenantId]);
    return made;
  }

  /** The tenant's pipeline of that id; another tenant's (or none) is refused as a bad `pipeline_id`. */
  async find(manager: EntityManager, tenantId: string, id: string): Promise<PipelineRow> {
    const [row]: PipelineRow[] = hasPrefix(id, 'pip')
      ? await manager.query(`SELECT ${PIPELINE_COLUMNS} FROM pipelines WHERE tenant_id = $1 AND id = $2`, [tenantId, id])
      : [];
    if (!row) throw new ProblemException(validationProblem([{ field: 'pipeline_id', message: `pipeline_id names no pipeline of this tenant (${id})` }]));
    return row;
  }
}
