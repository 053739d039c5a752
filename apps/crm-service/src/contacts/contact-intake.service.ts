import { Injectable } from '@nestjs/common';
import { isE164, isEmailAddress, newId, type ContactOptedInData, type ContactOptedOutData, type LeadRecord, type MessageInboundData } from '@parley/contracts';
import { GroupCommit } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { ActivitiesService } from '../activities/activities.service';
import { inboundMessageEntry } from '../activities/activity-entries';
import { enqueueEvents, type QueuedEvent } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { contactCreated, contactUpdated } from './contact-events';
import { ContactIntakeStore, type UpsertedRow } from './contact-intake.store';

/** An inbound message of a tenant. */
export interface InboundMessage {
  tenantId: string;
  message: MessageInboundData;
}

/** The messages of one email address in a batch (CONTRACT.md §17: an email customer is a contact too). */
interface AddressIntake {
  tenantId: string;
  email: string;
  name: string | null;
}

/** The messages of one number in a batch: the name of its first, and the first name any gives. */
interface NumberIntake {
  tenantId: string;
  phone: string;
  firstName: string | null;
  name: string | null;
}

/**
 * Contacts made from what other services announce (CONTRACT.md §14), each write with its events in one transaction:
 * ContactIntakeStore's upserts land on the one row of a number whoever writes it, and say whether they created it, so
 * `contact.created` goes out once.
 */
@Injectable()
export class ContactIntakeService {
  /** Inbound messages of the key groups consumed side by side share one transaction (group commit). */
  private readonly inbound = new GroupCommit<readonly InboundMessage[], void>(async (groups) => {
    await this.intakeInbound(groups.flat());
    return groups.map(() => undefined);
  });

  constructor(
    private readonly intake: ContactIntakeStore,
    private readonly relay: OutboxRelay,
    private readonly activities: ActivitiesService,
  ) {}

  /**
   * Inbound messages (a consumed key group): the first message of a number makes its contact, named by the provider's
   * profile name when it has none yet, and each message is an entry of the timeline. The groups consumed side by side
   * are written together (group commit): one transaction of a constant number of statements per consumed batch.
   */
  async fromInboundMessages(messages: readonly InboundMessage[]): Promise<void> {
    if (messages.length > 0) await this.inbound.add(messages);
  }

  /**
   * The messages' contacts in one upsert, their events in one outbox insert, their timeline entries in one insert; all
   * in one transaction. The messages of one number (and tenant) fold into one row as applying them in order would: the
   * first message makes the contact with its name, and a contact without a name takes the first name given.
   */
  private async intakeInbound(messages: readonly InboundMessage[]): Promise<void> {
    const numbers = new Map<string, NumberIntake>();
    const addresses = new Map<string, AddressIntake>();
    for (const { tenantId, message } of messages) {
      const name = message.contact_name || null;
      if (message.channel === 'email' && isEmailAddress(message.from)) {
        const key = JSON.stringify([tenantId, message.from.toLowerCase()]);
        const known = addresses.get(key);
        if (!known) addresses.set(key, { tenantId, email: message.from, name });
        else known.name ??= name;
        continue;
      }
      if (!isE164(message.from)) continue; // a business-scoped user id without a number: no phone to key a contact on
      const key = JSON.stringify([tenantId, message.from]);
      const known = numbers.get(key);
      if (!known) numbers.set(key, { tenantId, phone: message.from, firstName: name, name });
      else known.name ??= name;
    }
    await this.write(async (tx) => {
      if (numbers.size > 0) {
        const rows = await this.intake.upsertNumbers(
          [...numbers.values()].map(({ tenantId, phone, name }) => ({ id: newId('ctc'), tenant_id: tenantId, phone, name })),
          tx,
        );
        const changed = new Map(rows.map((row) => [JSON.stringify([row.tenant_id, row.phone]), row]));
        const events: QueuedEvent[] = [];
        for (const [key, { firstName }] of numbers) {
          const changedRow = changed.get(key);
          if (!changedRow) continue;
          const { inserted, ...row } = changedRow;
          if (!inserted) events.push(contactUpdated(row));
          // made without a name by the first message, named by a later one: announced as one at a time would
          else if (firstName === null && row.name !== null) events.push(contactCreated({ ...row, name: null }), contactUpdated(row));
          else events.push(contactCreated(row));
        }
        await enqueueEvents(tx, events);
      }
      // Few customers write by email: one look-up (and a write when new) per address is enough.
      for (const { tenantId, email, name } of addresses.values()) await this.byEmail(tx, tenantId, email, name, 'if-unnamed');
      await this.activities.insertMany(
        messages.map(({ tenantId, message }) => ({ tenantId, entry: inboundMessageEntry(message) })),
        tx,
      );
    });
  }

  /**
   * A captured (or updated) lead: its contact, by number or else by email, takes the lead's name and email, and the
   * lead is linked to it.
   */
  async fromLead(tenantId: string, lead: LeadRecord): Promise<void> {
    const phone = isE164(lead.phone) ? lead.phone : null;
    if (!phone && !lead.email) return;
    await this.write(async (tx) => {
      let contactId: string;
      if (phone) {
        const rows = await this.intake.upsertLeadNumber(tenantId, newId('ctc'), phone, lead.name, lead.email, tx);
        await this.announce(tx, rows);
        contactId = rows[0]?.id ?? (await this.intake.idByPhone(tenantId, phone, tx));
      } else {
        contactId = await this.byEmail(tx, tenantId, lead.email!, lead.name, 'always');
      }
      await this.intake.linkLead(tenantId, lead.id, contactId, tx);
    });
  }

  /**
   * STOP / START: the contact's `opted_out`, made if the number has none yet. A change older than the one already
   * applied (events of two topics may arrive out of order) or the same one again changes nothing.
   * `opted_out` is the WhatsApp marketing opt-out campaigns skip (§12, §15: campaigns send WhatsApp templates). A
   * carrier STOP/START on an SMS number (`channel: "sms"`, §17) opts the number out of SMS only, which
   * messaging-service keeps per channel: it leaves `opted_out` as it is.
   */
  async applyOptChange(tenantId: string, change: ContactOptedOutData | ContactOptedInData): Promise<void> {
    if (!isE164(change.customer) || change.channel === 'sms') return;
    const optedOut = change.event === 'contact.opted_out';
    await this.write(async (tx) => {
      const rows = await this.intake.applyOptChange(tenantId, newId('ctc'), change.customer, optedOut, change.at, tx);
      await this.announce(tx, rows);
    });
  }

  /**
   * The tenant's contact with this email (a lead without a number, a customer writing by email), or a new one
   * (email-only contacts are not unique): named by `name` always (a lead says who it is) or only when it has no name
   * yet (a mail's sender name, as a first WhatsApp message's profile name).
   */
  private async byEmail(tx: EntityManager, tenantId: string, email: string, name: string | null, rename: 'always' | 'if-unnamed'): Promise<string> {
    const existing = await this.intake.firstByEmail(tenantId, email, tx);
    if (!existing) {
      const created = await this.intake.insertEmailContact(tenantId, newId('ctc'), name, email, tx);
      await this.announce(tx, [created]);
      return created.id;
    }
    if (name && name !== existing.name && (rename === 'always' || existing.name === null)) {
      await enqueueEvents(tx, [contactUpdated(await this.intake.rename(tenantId, existing.id, name, tx))]);
    }
    return existing.id;
  }

  private async announce(tx: EntityManager, rows: UpsertedRow[]): Promise<void> {
    await enqueueEvents(
      tx,
      rows.map(({ inserted, ...row }) => (inserted ? contactCreated(row) : contactUpdated(row))),
    );
  }

  /** A write and the events it queued (most inbound messages of known customers queue none). */
  private write(work: (tx: EntityManager) => Promise<void>): Promise<void> {
    return this.relay.relayAfter((w) => this.intake.transaction(w), work);
  }
}
