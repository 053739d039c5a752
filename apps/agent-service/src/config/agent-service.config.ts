import { BaseConfig } from '@parley/service-kit';

export class AgentServiceConfig extends BaseConfig {
  override PORT = 3001;
}
