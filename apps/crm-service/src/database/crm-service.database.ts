import type { ServiceDatabase } from '@parley/service-kit';
import { CompanyEntity } from '../companies/company.entity';
import { ContactEntity, ContactLeadEntity } from '../contacts/contact.entity';
import { OutboxEntity } from '../outbox/outbox.entity';
import { CreateContacts1764720000000 } from './migrations/1764720000000-CreateContacts';
import { PipelinesAndDeals1764810000000 } from './migrations/1764810000000-PipelinesAndDeals';
import { ContactImports1764900000000 } from './migrations/1764900000000-ContactImports';
import { ContactActivities1765400000000 } from './migrations/1765400000000-ContactActivities';
import { ContactImportChunks1766200000000 } from './migrations/1766200000000-ContactImportChunks';
import { DealExpectedClose1766300000000 } from './migrations/1766300000000-DealExpectedClose';

export const crmServiceDatabase: ServiceDatabase = {
  schema: 'crm',
  entities: [ContactEntity, ContactLeadEntity, CompanyEntity, OutboxEntity],
  migrations: [CreateContacts1764720000000, PipelinesAndDeals1764810000000, ContactImports1764900000000, ContactActivities1765400000000, ContactImportChunks1766200000000, DealExpectedClose1766300000000],
};
