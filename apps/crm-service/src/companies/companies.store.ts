import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { CompanyEntity } from './company.entity';

/** Tenants' companies as stored; the tenant id is the first parameter of every method. */
@Injectable()
export class CompaniesStore {
  private readonly companies: Repository<CompanyEntity>;

  constructor(@InjectDataSource() db: DataSource) {
    this.companies = db.getRepository(CompanyEntity);
  }

  insert(tenantId: string, company: Pick<CompanyEntity, 'id' | 'name' | 'domain' | 'attributes'>): Promise<CompanyEntity> {
    return this.companies.save(this.companies.create({ ...company, tenantId }));
  }

  /** Newest first: up to `limit` with an id below `beforeId` (null: from the newest). */
  list(tenantId: string, limit: number, beforeId: string | null): Promise<CompanyEntity[]> {
    const query = this.companies.createQueryBuilder('c').where('c.tenant_id = :tenantId', { tenantId }).orderBy('c.id', 'DESC').take(limit);
    if (beforeId !== null) query.andWhere('c.id < :beforeId', { beforeId });
    return query.getMany();
  }

  find(tenantId: string, id: string): Promise<CompanyEntity | null> {
    return this.companies.findOneBy({ tenantId, id });
  }

  /** Writes back a company read by `find`. */
  save(tenantId: string, company: CompanyEntity): Promise<CompanyEntity> {
    if (company.tenantId !== tenantId) throw new Error(`company ${company.id} is not tenant ${tenantId}'s`);
    return this.companies.save(company);
  }

  /** Deletes the company (its contacts are unlinked by the foreign key); false when the tenant has none of that id. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    return Boolean((await this.companies.delete({ tenantId, id })).affected);
  }
}
