import { Topics, type ContactCreatedData, type ContactDeletedData, type ContactUpdatedData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { QueuedEvent } from '../outbox/outbox';
import { toContactRecord, type ContactRow } from './contacts.mapper';

/** One contact's events share its key, so they stay in order on one partition. */
const keyOf = (row: Pick<ContactRow, 'tenant_id' | 'id'>) => `${row.tenant_id}:${row.id}`;

export function contactCreated(row: ContactRow): QueuedEvent {
  const data: ContactCreatedData = { event: 'contact.created', tenant_id: row.tenant_id, contact: toContactRecord(row), at: new Date().toISOString() };
  return { envelope: EventPublisher.envelope(Topics.ContactCreated, row.tenant_id, data), key: keyOf(row) };
}

export function contactUpdated(row: ContactRow): QueuedEvent {
  const data: ContactUpdatedData = { event: 'contact.updated', tenant_id: row.tenant_id, contact: toContactRecord(row), at: new Date().toISOString() };
  return { envelope: EventPublisher.envelope(Topics.ContactUpdated, row.tenant_id, data), key: keyOf(row) };
}

export function contactDeleted(row: ContactRow): QueuedEvent {
  const data: ContactDeletedData = {
    event: 'contact.deleted',
    tenant_id: row.tenant_id,
    contact_id: row.id,
    phone: row.phone,
    email: row.email,
    at: new Date().toISOString(),
  };
  return { envelope: EventPublisher.envelope(Topics.ContactDeleted, row.tenant_id, data), key: keyOf(row) };
}
