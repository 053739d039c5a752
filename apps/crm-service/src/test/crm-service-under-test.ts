import { startServiceUnderTest, type ServiceUnderTest } from '@parley/testing';
import { crmServiceModule } from '../app.module';
import { CrmServiceConfig } from '../config/crm-service.config';
import { crmServiceDatabase } from '../database/crm-service.database';

/** crm-service under test (libs/testing's harness: calls, problems, publishing, a second instance). */
export type CrmServiceUnderTest = ServiceUnderTest<CrmServiceConfig>;

/** Boots the service the way integration specs need it: a quick outbox sweep, quiet logs; `env` overrides any setting. */
export function startCrmService(label: string, env: Record<string, string> = {}): Promise<CrmServiceUnderTest> {
  return startServiceUnderTest(label, { database: crmServiceDatabase, Config: CrmServiceConfig, module: crmServiceModule }, { NODE_ENV: 'development', LOG_LEVEL: 'error', CRM_OUTBOX_SWEEP_MS: '200', ...env });
}
