import { Topics, type DealCreatedData, type DealStageChangedData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { QueuedEvent } from '../outbox/outbox';
import { toDealRecord, type DealRow } from './deals.mapper';

/** One deal's events share its key, so its creation and stage changes stay in order on one partition. */
const keyOf = (row: Pick<DealRow, 'tenant_id' | 'id'>) => `${row.tenant_id}:${row.id}`;

export function dealCreated(row: DealRow): QueuedEvent {
  const data: DealCreatedData = { event: 'deal.created', tenant_id: row.tenant_id, deal: toDealRecord(row), at: new Date().toISOString() };
  return { envelope: EventPublisher.envelope(Topics.DealCreated, row.tenant_id, data), key: keyOf(row) };
}

export function dealStageChanged(row: DealRow, previousStage: string): QueuedEvent {
  const data: DealStageChangedData = {
    event: 'deal.stage_changed',
    tenant_id: row.tenant_id,
    deal: toDealRecord(row),
    previous_stage: previousStage,
    at: new Date().toISOString(),
  };
  return { envelope: EventPublisher.envelope(Topics.DealStageChanged, row.tenant_id, data), key: keyOf(row) };
}
