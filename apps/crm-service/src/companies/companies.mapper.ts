import type { CompanyRecord } from '@parley/contracts';
import type { CompanyEntity } from './company.entity';

/** The public company (CONTRACT.md §14). */
export function toCompanyRecord(entity: CompanyEntity): CompanyRecord {
  return {
    id: entity.id,
    name: entity.name,
    domain: entity.domain,
    attributes: entity.attributes,
    created_at: entity.createdAt.toISOString(),
    updated_at: entity.updatedAt.toISOString(),
  };
}
