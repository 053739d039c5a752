import { BaseConfig } from '@parley/service-kit';
import { IsUrl } from 'class-validator';

/** The one setting the dashboard's playground needs beyond the gateway's own (same environment, same defaults). */
export class DashboardConfig extends BaseConfig {
  override PORT = 3000;

  /** Where the WhatsApp sandbox listens (`npm start` and the tests set it). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  SANDBOX_URL = 'http://127.0.0.1:3100';
}
