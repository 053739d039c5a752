import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CreateCompanyBody, UpdateCompanyBody, hasPrefix, newId, notFoundProblem, type CompanyRecord, type Page } from '@parley/contracts';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { DataSource, type Repository } from 'typeorm';
import { toCompanyRecord } from './companies.mapper';
import { CompanyEntity } from './company.entity';

const MAX_PAGE = 100;

/** Tenants' companies (CONTRACT.md §14). Deleting one unlinks its contacts (the foreign key sets their company_id null). */
@Injectable()
export class CompaniesService {
  private readonly companies: Repository<CompanyEntity>;

  constructor(
    @InjectDataSource() db: DataSource,
    private readonly cursors: ListCursors,
  ) {
    this.companies = db.getRepository(CompanyEntity);
  }

  async create(tenantId: string, rawBody: unknown): Promise<CompanyRecord> {
    const body = await validateDto(CreateCompanyBody, rawBody);
    const entity = await this.companies.save(
      this.companies.create({ id: newId('cmp'), tenantId, name: body.name, domain: body.domain?.toLowerCase() ?? null, attributes: body.attributes ?? {} }),
    );
    return toCompanyRecord(entity);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<CompanyRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, 'companies');
    const after = cursors.after(cursor);
    const qb = this.companies.createQueryBuilder('c').where('c.tenant_id = :tenantId', { tenantId }).orderBy('c.id', 'DESC').take(take + 1);
    if (after !== null) qb.andWhere('c.id < :after', { after });
    const rows = await qb.getMany();
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
    return toCompanyRecord(await this.companies.save(entity));
  }

  async delete(tenantId: string, id: string): Promise<void> {
    const result = hasPrefix(id, 'cmp') ? await this.companies.delete({ tenantId, id }) : { affected: 0 };
    if (!result.affected) throw new ProblemException(notFoundProblem(`Company "${id}"`));
  }

  private async find(tenantId: string, id: string): Promise<CompanyEntity> {
    const entity = hasPrefix(id, 'cmp') ? await this.companies.findOneBy({ tenantId, id }) : null;
    if (!entity) throw new ProblemException(notFoundProblem(`Company "${id}"`));
    return entity;
  }
}
