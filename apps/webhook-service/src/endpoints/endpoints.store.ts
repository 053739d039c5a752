import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { EndpointEntity } from './endpoint.entity';

/** Tenants' webhook endpoints as stored; the tenant id is the first parameter of every method. */
@Injectable()
export class EndpointsStore {
  private readonly endpoints: Repository<EndpointEntity>;

  constructor(@InjectDataSource() db: DataSource) {
    this.endpoints = db.getRepository(EndpointEntity);
  }

  /** Stores a new endpoint (all of its fields given) and answers it as stored. */
  insert(tenantId: string, endpoint: Omit<EndpointEntity, 'tenantId' | 'createdAt' | 'updatedAt'>): Promise<EndpointEntity> {
    return this.endpoints.save(this.endpoints.create({ ...endpoint, tenantId }));
  }

  /** Newest first: up to `limit` endpoints with an id below `beforeId` (null: from the newest). */
  list(tenantId: string, limit: number, beforeId: string | null): Promise<EndpointEntity[]> {
    const query = this.endpoints.createQueryBuilder('e').where('e.tenant_id = :tenantId', { tenantId }).orderBy('e.id', 'DESC').take(limit);
    if (beforeId !== null) query.andWhere('e.id < :beforeId', { beforeId });
    return query.getMany();
  }

  async find(tenantId: string, id: string): Promise<EndpointEntity | null> {
    return this.endpoints.findOneBy({ tenantId, id });
  }

  /** Writes back an endpoint read by `find` (only another tenant's id could not be found, so none is written). */
  save(tenantId: string, endpoint: EndpointEntity): Promise<EndpointEntity> {
    if (endpoint.tenantId !== tenantId) throw new Error(`endpoint ${endpoint.id} is not tenant ${tenantId}'s`);
    return this.endpoints.save(endpoint);
  }

  /** Deletes the endpoint with its deliveries (cascade); false when the tenant has no such endpoint. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    return Boolean((await this.endpoints.delete({ tenantId, id })).affected);
  }
}
