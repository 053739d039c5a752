import type { ServiceDatabase } from '@parley/service-kit';
import { CreateBilling1765065600000 } from './migrations/1765065600000-CreateBilling';
import { TopUpsAndInvoices1765238400000 } from './migrations/1765238400000-TopUpsAndInvoices';

/** Money stays PostgreSQL `numeric` end to end, so the service reads and writes its tables with SQL, not entities. */
export const billingServiceDatabase: ServiceDatabase = {
  schema: 'billing',
  entities: [],
  migrations: [CreateBilling1765065600000, TopUpsAndInvoices1765238400000],
};
