import type { ServiceDatabase } from '@parley/service-kit';
import { AgentReadEntity } from '../agents/agent.entity';
import { AppointmentEntity } from '../appointments/appointment.entity';
import { CalendarFeedEntity } from '../appointments/calendar-feed.entity';
import { ConversationEntity, ConversationMessageEntity, ConversationNoteEntity } from '../conversations/conversation.entity';
import { AgentDocumentEntity } from '../documents/agent-document.entity';
import { LeadEntity } from '../leads/lead.entity';
import { LlmSettingsEntity } from '../llm-settings/llm-settings.entity';
import { ProcessedMessageEntity } from '../replies/processed-message.entity';
import { CreateResponder1763856000000 } from './migrations/1763856000000-CreateResponder';
import { AgentTombstonesById1764028800000 } from './migrations/1764028800000-AgentTombstonesById';
import { SkillsEngine1764115200000 } from './migrations/1764115200000-SkillsEngine';
import { AgentDocuments1764720000000 } from './migrations/1764720000000-AgentDocuments';
import { Inbox1764806400000 } from './migrations/1764806400000-Inbox';
import { CalendarFeeds1764892800000 } from './migrations/1764892800000-CalendarFeeds';
import { TurnContent1764979200000 } from './migrations/1764979200000-TurnContent';
import { LlmSettings1765065600000 } from './migrations/1765065600000-LlmSettings';
import { ConversationsByCustomer1765152000000 } from './migrations/1765152000000-ConversationsByCustomer';
import { LlmSpend1765324800000 } from './migrations/1765324800000-LlmSpend';
import { InboxOutbox1765497600000 } from './migrations/1765497600000-InboxOutbox';
import { PassageVectors1765584000000 } from './migrations/1765584000000-PassageVectors';
import { ConversationChannel1765411200000 } from './migrations/1765411200000-ConversationChannel';
import { InboxSearch1765670400000 } from './migrations/1765670400000-InboxSearch';
import { CannedReplies1765756800000 } from './migrations/1765756800000-CannedReplies';
import { ContactNames1765843200000 } from './migrations/1765843200000-ContactNames';
import { KnowledgeGaps1765929600000 } from './migrations/1765929600000-KnowledgeGaps';
import { ReplyOutcomes1766016000000 } from './migrations/1766016000000-ReplyOutcomes';
import { AgentTests1766102400000 } from './migrations/1766102400000-AgentTests';
import { PendingGapOccurrences1766188800000 } from './migrations/1766188800000-PendingGapOccurrences';
import { TestRunCauses1766275200000 } from './migrations/1766275200000-TestRunCauses';
import { TeamOperations1766361600000 } from './migrations/1766361600000-TeamOperations';
import { RatingsAndMentions1766448000000 } from './migrations/1766448000000-RatingsAndMentions';

export const responderServiceDatabase: ServiceDatabase = {
  schema: 'responder',
  entities: [AgentReadEntity, ConversationEntity, ConversationMessageEntity, ConversationNoteEntity, ProcessedMessageEntity, LeadEntity, AppointmentEntity, CalendarFeedEntity, AgentDocumentEntity, LlmSettingsEntity],
  migrations: [CreateResponder1763856000000, AgentTombstonesById1764028800000, SkillsEngine1764115200000, AgentDocuments1764720000000, Inbox1764806400000, CalendarFeeds1764892800000, TurnContent1764979200000, LlmSettings1765065600000, ConversationsByCustomer1765152000000, LlmSpend1765324800000, ConversationChannel1765411200000, InboxOutbox1765497600000, PassageVectors1765584000000, InboxSearch1765670400000, CannedReplies1765756800000, ContactNames1765843200000, KnowledgeGaps1765929600000, ReplyOutcomes1766016000000, AgentTests1766102400000, PendingGapOccurrences1766188800000, TestRunCauses1766275200000, TeamOperations1766361600000, RatingsAndMentions1766448000000],
};
