import type { ServiceDatabase } from '@parley/service-kit';
import { AgentEntity, AgentVersionEntity } from '../agents/agent.entity';
import { CreateAgents1763769600000 } from './migrations/1763769600000-CreateAgents';

export const agentServiceDatabase: ServiceDatabase = {
  schema: 'agents',
  entities: [AgentEntity, AgentVersionEntity],
  migrations: [CreateAgents1763769600000],
};
