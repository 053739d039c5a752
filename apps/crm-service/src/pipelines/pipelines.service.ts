import { Injectable } from '@nestjs/common';
import { CreatePipelineBody, DEFAULT_PIPELINE_STAGES, hasPrefix, newId, validationProblem, type PipelineRecord } from '@parley/contracts';
import { ProblemException, validateDto } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { toPipelineRecord, type PipelineRow } from './pipelines.mapper';
import { PipelinesStore } from './pipelines.store';

/** Tenants' sales pipelines (CONTRACT.md §14); each tenant has a default one, made the first time it is needed. */
@Injectable()
export class PipelinesService {
  constructor(private readonly pipelines: PipelinesStore) {}

  /** Every pipeline of the tenant, the default one first, then by age. */
  async list(tenantId: string): Promise<{ data: PipelineRecord[] }> {
    await this.defaultOf(undefined, tenantId);
    return { data: (await this.pipelines.list(tenantId)).map(toPipelineRecord) };
  }

  async create(tenantId: string, rawBody: unknown): Promise<PipelineRecord> {
    const body = await validateDto(CreatePipelineBody, rawBody);
    return toPipelineRecord(await this.pipelines.insert(tenantId, { id: newId('pip'), name: body.name, stages: body.stages }));
  }

  /** The tenant's default pipeline (new, qualified, proposal, won, lost), made now if it has none; racing makers agree. */
  async defaultOf(tx: EntityManager | undefined, tenantId: string): Promise<PipelineRow> {
    const existing = await this.pipelines.findDefault(tenantId, tx);
    if (existing) return existing;
    await this.pipelines.insertDefault(tenantId, { id: newId('pip'), name: 'Sales', stages: [...DEFAULT_PIPELINE_STAGES] }, tx);
    return (await this.pipelines.findDefault(tenantId, tx))!;
  }

  /** The tenant's pipeline of that id; another tenant's (or none) is refused as a bad `pipeline_id`. */
  async find(tx: EntityManager | undefined, tenantId: string, id: string): Promise<PipelineRow> {
    const row = hasPrefix(id, 'pip') ? await this.pipelines.find(tenantId, id, tx) : null;
    if (!row) throw new ProblemException(validationProblem([{ field: 'pipeline_id', message: `pipeline_id names no pipeline of this tenant (${id})` }]));
    return row;
  }
}
