import { Topics, derivedId, type AgentGapOpenedData, type KnowledgeGapRecord } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { StoredEvent } from '../replies/processed-message.entity';
import type { GapOccurrence } from './gaps.store';

/** `agent.gap_opened`; its id derives from the gap, so republishing cannot send it twice. */
export function gapOpenedEvent(tenantId: string, gap: KnowledgeGapRecord, occurrence: GapOccurrence): StoredEvent {
  const data: AgentGapOpenedData = {
    event: 'agent.gap_opened',
    tenant_id: tenantId,
    agent: gap.agent,
    gap,
    reason: occurrence.reason,
    conversation_id: occurrence.conversationId,
    customer: occurrence.customer,
    at: occurrence.at.toISOString(),
  };
  return {
    topic: Topics.AgentGapOpened,
    key: `${tenantId}:${gap.agent}`,
    value: EventPublisher.envelope(Topics.AgentGapOpened, tenantId, data, derivedId('evt', 'gap', gap.id)),
  };
}
