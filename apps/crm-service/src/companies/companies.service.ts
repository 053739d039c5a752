import { Injectable } from '@nestjs/common';
import { CreateCompanyBody, UpdateCompanyBody, hasPrefix, newId, notFoundProblem, type CompanyRecord, type Page } from '@parley/contracts';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { toCompanyRecord } from './companies.mapper';
import { CompaniesStore } from './companies.store';
import type { CompanyEntity } from './company.entity';

const MAX_PAGE = 100;

/** Tenants' companies (CONTRACT.md §14). Deleting one unlinks its contacts (the foreign key sets their company_id null). */
@Injectable()
export class CompaniesService {
  constructor(
    private readonly companies: CompaniesStore,
    private readonly cursors: ListCursors,
  ) {}

  async create(tenantId: string, rawBody: unknown): Promise<CompanyRecord> {
    const body = await validateDto(CreateCompanyBody, rawBody);
    const entity = await this.companies.insert(tenantId, { id: newId('cmp'), name: body.name, domain: body.domain?.toLowerCase() ?? null, attributes: body.attributes ?? {} });
    return toCompanyRecord(entity);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<CompanyRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, 'companies');
    const rows = await this.companies.list(tenantId, take + 1, cursors.after(cursor));
    return { data: rows.slice(0, take).map(toCompanyRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  async get(tenantId: string, id: string): Promise<CompanyRecord> {
    return toCompanyRecord(await this.find(tenantId, id));
  }

  async update(tenantId: string, id: string, rawBody: unknown): Promise<CompanyRecord> {
    const body = await validateDto(UpdateCompanyBody, rawBody);
    const entity = await this.find(tenantId, id);
    if (body.name !== undefined) entity.name = body.name;
    if (body.domain !== undefined) entity.domain = body.domain?.toLowerCase() ?? null;
    if (body.attributes !== undefined) entity.attributes = body.attributes;
    return toCompanyRecord(await this.companies.save(tenantId, entity));
  }

  async delete(tenantId: string, id: string): Promise<void> {
    const deleted = hasPrefix(id, 'cmp') && (await this.companies.delete(tenantId, id));
    if (!deleted) throw new ProblemException(notFoundProblem(`Company "${id}"`));
  }

  private async find(tenantId: string, id: string): Promise<CompanyEntity> {
    const entity = hasPrefix(id, 'cmp') ? await this.companies.find(tenantId, id) : null;
    if (!entity) throw new ProblemException(notFoundProblem(`Company "${id}"`));
    return entity;
  }
}
