import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ProblemTypes, hasPrefix, newId, notFoundProblem, problem, type ChannelRecord, type Page, type WhatsappProvider } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { normalisePhone } from '../common/phone';
import { invalid, pageLimit } from '../common/paging';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { CredentialCipher } from '../crypto/credential-cipher';
import type { ProviderSender } from '../providers/whatsapp-provider';
import { ChannelEntity } from './channel.entity';
import { toChannelRecord } from './channels.mapper';
import { SandboxNumbersClient } from './sandbox-numbers.client';

/** The access token stored for numbers the sandbox provisions (the sandbox accepts any bearer token). */
export const SANDBOX_ACCESS_TOKEN = 'sandbox';

export interface ConnectChannelInput {
  provider: WhatsappProvider;
  phone_number: string;
  phone_number_id: string;
  waba_id?: string | null;
  access_token: string;
  agent?: string | null;
  is_default?: boolean;
}

/** A channel ready to send: its number and the provider credentials to send with. */
export interface SendingChannel {
  id: string;
  phoneNumber: string;
  sender: ProviderSender;
}

/** How an outbound message names its channel; without either, the tenant's default sends. */
export interface SenderChoice {
  channelId?: string | null;
  from?: string | null;
}

/**
 * Owns the tenant's connected WhatsApp numbers and their encrypted credentials. Every method that reads or writes
 * a tenant's channels takes the tenant; the one exception, `findByPhoneNumberId`, is how a provider notification
 * is attributed to its tenant in the first place.
 */
@Injectable()
export class ChannelsService {
  private readonly logger = new Logger(ChannelsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cipher: CredentialCipher,
    private readonly sandbox: SandboxNumbersClient,
    private readonly config: MessagingServiceConfig,
  ) {}

  /**
   * Gives the tenant a sandbox number of its own. Idempotent per tenant: a retried call (e.g. after a time-out)
   * answers the sandbox channel the first call made instead of provisioning a second number.
   */
  async provisionSandbox(tenantId: string): Promise<ChannelRecord> {
    if (!this.config.SANDBOX_ENABLED) {
      throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', 'The WhatsApp sandbox is not enabled on this installation.'));
    }
    const channel = await this.db.transaction(async (tx) => {
      await this.lockTenant(tx, tenantId);
      const existing = await tx.getRepository(ChannelEntity).findOne({ where: { tenantId, provider: 'sandbox' }, order: { id: 'ASC' } });
      if (existing) return existing;
      const number = await this.sandbox.provision();
      return this.insert(tx, tenantId, {
        provider: 'sandbox',
        phone_number: number.phone_number,
        phone_number_id: number.phone_number_id,
        access_token: SANDBOX_ACCESS_TOKEN,
      });
    });
    return toChannelRecord(channel);
  }

  /** Stores a connected number with its credential encrypted. The tenant's first channel becomes its default. */
  async connect(tenantId: string, input: ConnectChannelInput): Promise<ChannelRecord> {
    const channel = await this.db.transaction(async (tx) => {
      await this.lockTenant(tx, tenantId);
      return this.insert(tx, tenantId, input);
    });
    return toChannelRecord(channel);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<ChannelRecord>> {
    const take = pageLimit(limit);
    if (cursor != null && !hasPrefix(cursor, 'chn')) throw invalid([{ field: 'cursor', message: 'cursor is not a cursor this list returned' }]);
    const qb = this.db.getRepository(ChannelEntity).createQueryBuilder('c').where('c.tenant_id = :tenantId', { tenantId }).orderBy('c.id', 'DESC').take(take + 1);
    if (cursor) qb.andWhere('c.id < :cursor', { cursor });
    const rows = await qb.getMany();
    const page = rows.slice(0, take);
    return { data: page.map(toChannelRecord), next_cursor: rows.length > take ? page[page.length - 1].id : null };
  }

  /** The tenant's channel with this number (the `from` of a send), else 404. */
  async resolveSender(tenantId: string, phoneNumber: string): Promise<ChannelRecord> {
    if (typeof phoneNumber !== 'string' || !phoneNumber.trim()) throw invalid([{ field: 'phone_number', message: 'phone_number must be an E.164 number' }]);
    const channel = await this.db.getRepository(ChannelEntity).findOne({ where: { tenantId, phoneNumber: normalisePhone(phoneNumber), status: 'connected' } });
    if (!channel) throw new ProblemException(notFoundProblem(`The WhatsApp number ${phoneNumber}`));
    return toChannelRecord(channel);
  }

  /** The channel an outbound message goes out on: the named channel, else the number `from`, else the default. */
  async findForSend(tenantId: string, choice: SenderChoice): Promise<SendingChannel | null> {
    const repo = this.db.getRepository(ChannelEntity);
    const where = choice.channelId
      ? { tenantId, id: choice.channelId }
      : choice.from
        ? { tenantId, phoneNumber: normalisePhone(choice.from) }
        : { tenantId, isDefault: true };
    const channel = await repo.findOne({ where: { ...where, status: 'connected' } });
    if (!channel) return null;
    return {
      id: channel.id,
      phoneNumber: channel.phoneNumber,
      sender: { provider: channel.provider, phoneNumberId: channel.phoneNumberId, accessToken: this.cipher.decrypt(channel.credentialsEncrypted) },
    };
  }

  /** Attribution of a provider notification: the channel (and so the tenant) that owns the number. */
  findByPhoneNumberId(phoneNumberId: string): Promise<ChannelEntity | null> {
    return this.db.getRepository(ChannelEntity).findOne({ where: { phoneNumberId } });
  }

  private async insert(tx: EntityManager, tenantId: string, input: ConnectChannelInput): Promise<ChannelEntity> {
    const repo = tx.getRepository(ChannelEntity);
    const hasDefault = await repo.exist({ where: { tenantId, isDefault: true } });
    const makeDefault = !hasDefault || input.is_default === true;
    if (makeDefault && hasDefault) await repo.update({ tenantId, isDefault: true }, { isDefault: false });
    const channel = repo.create({
      id: newId('chn'),
      tenantId,
      provider: input.provider,
      phoneNumber: normalisePhone(input.phone_number),
      phoneNumberId: input.phone_number_id,
      wabaId: input.waba_id ?? null,
      credentialsEncrypted: this.cipher.encrypt(input.access_token),
      agent: input.agent ?? null,
      isDefault: makeDefault,
      status: 'connected',
    });
    const saved = await repo.save(channel);
    this.logger.log(`connected channel ${saved.id} (${saved.provider}) for tenant ${tenantId}${makeDefault ? ' as its default' : ''}`);
    return saved;
  }

  /** Serialises channel changes of one tenant, so "the first channel is the default" holds under concurrency. */
  private async lockTenant(tx: EntityManager, tenantId: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('channels:' || $1))`, [tenantId]);
  }
}
