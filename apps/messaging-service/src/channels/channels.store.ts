import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ChannelKind } from '@parley/contracts';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { ChannelEntity } from './channel.entity';

/** A channel to store: every field but its tenant and creation time (the credentials encrypted already). */
export type NewChannel = Omit<ChannelEntity, 'tenantId' | 'createdAt'>;

/** Which of a tenant's connected channels: by id, by number (or address) and kind, or the default of a kind. */
export type ChannelMatch = Partial<Pick<ChannelEntity, 'id' | 'kind' | 'phoneNumber' | 'isDefault'>>;

/**
 * Channels as stored; the tenant id first. The exceptions, named so, attribute what a provider sends (a number, an
 * address, a provider id, a channel id in a URL) to the tenant that owns it in the first place. Changes of a tenant's
 * channels run in a transaction (`transaction`) holding `lockTenant`, so "one default per kind" holds under concurrency.
 */
@Injectable()
export class ChannelsStore {
  private readonly channels: Repository<ChannelEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.channels = db.getRepository(ChannelEntity);
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Serialises channel changes of one tenant until `tx` ends. */
  async lockTenant(tenantId: string, tx: EntityManager): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('channels:' || $1))`, [tenantId]);
  }

  /** The tenant's first sandbox WhatsApp number, or null. */
  firstSandbox(tenantId: string, tx: EntityManager): Promise<ChannelEntity | null> {
    return tx.getRepository(ChannelEntity).findOne({ where: { tenantId, kind: 'whatsapp', provider: 'sandbox' }, order: { id: 'ASC' } });
  }

  hasDefault(tenantId: string, kind: ChannelKind, tx: EntityManager): Promise<boolean> {
    return tx.getRepository(ChannelEntity).exist({ where: { tenantId, kind, isDefault: true } });
  }

  /** The tenant has no default of this kind any more (one is made the default next, in the same `tx`). */
  async clearDefault(tenantId: string, kind: ChannelKind, tx: EntityManager): Promise<void> {
    await tx.getRepository(ChannelEntity).update({ tenantId, kind, isDefault: true }, { isDefault: false });
  }

  async makeDefault(tenantId: string, id: string, tx: EntityManager): Promise<void> {
    await tx.getRepository(ChannelEntity).update({ tenantId, id }, { isDefault: true });
  }

  insert(tenantId: string, channel: NewChannel, tx: EntityManager): Promise<ChannelEntity> {
    const repo = tx.getRepository(ChannelEntity);
    return repo.save(repo.create({ ...channel, tenantId }));
  }

  find(tenantId: string, id: string, tx: EntityManager): Promise<ChannelEntity | null> {
    return tx.getRepository(ChannelEntity).findOne({ where: { tenantId, id } });
  }

  /** Writes back a channel `find` read in `tx`. */
  save(tenantId: string, channel: ChannelEntity, tx: EntityManager): Promise<ChannelEntity> {
    if (channel.tenantId !== tenantId) throw new Error(`channel ${channel.id} is not tenant ${tenantId}'s`);
    return tx.getRepository(ChannelEntity).save(channel);
  }

  async delete(tenantId: string, id: string, tx: EntityManager): Promise<void> {
    await tx.getRepository(ChannelEntity).delete({ tenantId, id });
  }

  /** The tenant's oldest channel of this kind, or null. */
  oldest(tenantId: string, kind: ChannelKind, tx: EntityManager): Promise<ChannelEntity | null> {
    return tx.getRepository(ChannelEntity).findOne({ where: { tenantId, kind }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  all(tenantId: string): Promise<ChannelEntity[]> {
    return this.channels.find({ where: { tenantId } });
  }

  /** Newest first: up to `limit` of the tenant's channels with an id below `beforeId` (null: from the newest). */
  list(tenantId: string, limit: number, beforeId: string | null): Promise<ChannelEntity[]> {
    const qb = this.channels.createQueryBuilder('c').where('c.tenant_id = :tenantId', { tenantId }).orderBy('c.id', 'DESC').take(limit);
    if (beforeId !== null) qb.andWhere('c.id < :after', { after: beforeId });
    return qb.getMany();
  }

  /** The tenant's connected channel that `match` names, or null. */
  findConnected(tenantId: string, match: ChannelMatch): Promise<ChannelEntity | null> {
    return this.channels.findOne({ where: { tenantId, ...match, status: 'connected' } });
  }

  /** Attribution, across tenants: the connected channel of this kind with this number or address (one tenant has it). */
  findConnectedByAddress(kind: ChannelKind, address: string): Promise<ChannelEntity | null> {
    return this.channels.findOne({ where: { kind, phoneNumber: address, status: 'connected' } });
  }

  /** Attribution, across tenants: the channel with this provider id of its number. */
  findByPhoneNumberId(phoneNumberId: string): Promise<ChannelEntity | null> {
    return this.channels.findOne({ where: { phoneNumberId } });
  }

  /** Whether any tenant has a number with this provider id. */
  phoneNumberIdTaken(phoneNumberId: string): Promise<boolean> {
    return this.channels.exist({ where: { phoneNumberId } });
  }

  /** Attribution, across tenants: the channel a notification's URL named. */
  findById(id: string): Promise<ChannelEntity | null> {
    return this.channels.findOne({ where: { id } });
  }

  /** Attribution, across tenants: the 360dialog channel a notification's URL named. */
  find360dialog(id: string): Promise<ChannelEntity | null> {
    return this.channels.findOne({ where: { id, provider: '360dialog' } });
  }
}
