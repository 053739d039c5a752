import type { ServiceDatabase } from '@parley/service-kit';
import { AgentEntity, AgentVersionEntity } from '../agents/agent.entity';
import { DocumentEntity } from '../documents/document.entity';
import { CreateAgents1763769600000 } from './migrations/1763769600000-CreateAgents';
import { CreateDocuments1764720000000 } from './migrations/1764720000000-CreateDocuments';
import { DocumentRefresh1766102400000 } from './migrations/1766102400000-DocumentRefresh';
import { DocumentImports1766188800000 } from './migrations/1766188800000-DocumentImports';

export const agentServiceDatabase: ServiceDatabase = {
  schema: 'agents',
  entities: [AgentEntity, AgentVersionEntity, DocumentEntity],
  migrations: [CreateAgents1763769600000, CreateDocuments1764720000000, DocumentRefresh1766102400000, DocumentImports1766188800000],
};
