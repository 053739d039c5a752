import type { ServiceDatabase } from '@parley/service-kit';
import { AgentReadEntity } from '../agents/agent.entity';
import { ConversationEntity, ConversationMessageEntity } from '../conversations/conversation.entity';
import { ProcessedMessageEntity } from '../replies/processed-message.entity';
import { CreateResponder1763856000000 } from './migrations/1763856000000-CreateResponder';
import { AgentTombstonesById1764028800000 } from './migrations/1764028800000-AgentTombstonesById';

export const responderServiceDatabase: ServiceDatabase = {
  schema: 'responder',
  entities: [AgentReadEntity, ConversationEntity, ConversationMessageEntity, ProcessedMessageEntity],
  migrations: [CreateResponder1763856000000, AgentTombstonesById1764028800000],
};
