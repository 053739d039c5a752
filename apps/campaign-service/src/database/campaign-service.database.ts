import type { ServiceDatabase } from '@parley/service-kit';
import { CreateCampaigns1765000000000 } from './migrations/1765000000000-CreateCampaigns';
import { AddCampaignEstimate1766000000000 } from './migrations/1766000000000-AddCampaignEstimate';

/** Plain SQL throughout (claims with SKIP LOCKED, counters updated with their transitions): no entities. */
export const campaignServiceDatabase: ServiceDatabase = {
  schema: 'campaigns',
  entities: [],
  migrations: [CreateCampaigns1765000000000, AddCampaignEstimate1766000000000],
};
