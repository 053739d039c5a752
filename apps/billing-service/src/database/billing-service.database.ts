import type { ServiceDatabase } from '@parley/service-kit';
import { CreateBilling1765065600000 } from './migrations/1765065600000-CreateBilling';
import { TopUpsAndInvoices1765238400000 } from './migrations/1765238400000-TopUpsAndInvoices';
import { LlmSpend1765324800000 } from './migrations/1765324800000-LlmSpend';
import { OutboxInOrder1766534400000 } from './migrations/1766534400000-OutboxInOrder';

/** Money stays PostgreSQL `numeric` end to end, so the service reads and writes its tables with SQL, not entities. */
export const billingServiceDatabase: ServiceDatabase = {
  schema: 'billing',
  entities: [],
  migrations: [CreateBilling1765065600000, TopUpsAndInvoices1765238400000, LlmSpend1765324800000, OutboxInOrder1766534400000],
};
