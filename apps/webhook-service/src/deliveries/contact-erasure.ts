import { Injectable } from '@nestjs/common';
import type { ContactDeletedData } from '@parley/contracts';
import { DeliveriesStore } from './deliveries.store';

/**
 * A deleted contact's personal data in the events kept for replay (CONTRACT.md §14, §5): every event of the tenant
 * whose body names the contact's number or email goes, with its deliveries and their attempts (ON DELETE CASCADE),
 * delivered or not. The `contact.deleted` event itself is kept and delivered without them (`eraseFromAnnouncement`).
 */
@Injectable()
export class ContactErasure {
  constructor(private readonly store: DeliveriesStore) {}

  async erase(data: ContactDeletedData): Promise<void> {
    const addresses = [data.phone, data.email].filter((a): a is string => typeof a === 'string' && a !== '');
    if (addresses.length === 0) return;
    await this.store.eraseEventsNaming(data.tenant_id, addresses);
  }
}

/** The announcement as tenants receive and replay it: the contact's id, not its number or email any more. */
export const eraseFromAnnouncement = (data: ContactDeletedData): ContactDeletedData => ({ ...data, phone: null, email: null });
