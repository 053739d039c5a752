import { Topics, type AgentChangedEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { startServiceUnderTest, type ServiceUnderTest } from '@parley/testing';
import { agentServiceModule } from '../app.module';
import { AgentServiceConfig } from '../config/agent-service.config';
import { agentServiceDatabase } from '../database/agent-service.database';

/** agent-service under test (libs/testing's harness), with a probe on agent.changed. */
export interface AgentServiceUnderTest extends ServiceUnderTest<AgentServiceConfig> {
  /** Every agent.changed the service publishes, from its start. */
  changes: TopicProbe<AgentChangedEvent>;
}

export async function startAgentService(label: string): Promise<AgentServiceUnderTest> {
  const service = await startServiceUnderTest(label, { database: agentServiceDatabase, Config: AgentServiceConfig, module: agentServiceModule });
  const changes = await service.kafka.probe<AgentChangedEvent>(Topics.AgentChanged);
  service.onClose(() => changes.stop());
  return { ...service, changes };
}
