import { Injectable, Logger } from '@nestjs/common';
import {
  ProblemTypes,
  Topics,
  hasPrefix,
  newId,
  notFoundProblem,
  problem,
  type ChannelChangedData,
  type ChannelKind,
  type ChannelProvider,
  type ChannelView,
  type ConnectChannelRequest,
  type ConnectEmailChannelRequest,
  type ConnectSmsChannelRequest,
  type ConnectVoiceChannelRequest,
  type ConnectedChannelRecord,
  type Page,
  type UpdateChannelRequest,
  type WhatsappProvider,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { CredentialCipher, ListCursors, ProblemException } from '@parley/service-kit';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { QueryFailedError, type EntityManager } from 'typeorm';
import { normaliseAddress, normalisePhone } from '../common/phone';
import { invalid, pageLimit } from '../common/paging';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import type { ProviderSender } from '../providers/whatsapp-provider';
import { isValidTwilioSignature } from '../providers/twilio-signature';
import type { ChannelEntity } from './channel.entity';
import { toChannelRecord } from './channels.mapper';
import { ChannelsStore, type ChannelMatch, type NewChannel } from './channels.store';
import { SandboxNumbersClient } from './sandbox-numbers.client';

/** The access token stored for numbers the sandbox provisions (the sandbox accepts any bearer token). */
export const SANDBOX_ACCESS_TOKEN = 'sandbox';

export interface ConnectChannelInput {
  kind?: ChannelKind;
  provider: ChannelProvider;
  phone_number: string;
  phone_number_id: string | null;
  waba_id?: string | null;
  access_token: string;
  agent?: string | null;
  is_default?: boolean;
  inbound_token_sha256?: string | null;
  registration_pin?: string | null;
}

/** A channel ready to send: its number and the provider credentials to send with. */
export interface SendingChannel {
  id: string;
  phoneNumber: string;
  /** Messages per second this number may send; null: the provider's default. */
  sendLimitPerSecond: number | null;
  sender: ProviderSender;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** The broker must take a `channel.changed` within this time, or it is logged and left to the readers' TTLs. */
const CHANGE_PUBLISH_TIMEOUT_MS = 2000;

/** How an outbound message names its channel; without either, the tenant's default of that kind sends. */
export interface SenderChoice {
  channelId?: string | null;
  from?: string | null;
  /** The message's channel kind (default `whatsapp`): `from` and the default are looked up among those channels. */
  kind?: ChannelKind;
}

/** A channel of kind `whatsapp`: its provider is a WhatsApp provider. */
export type WhatsappChannelEntity = ChannelEntity & { kind: 'whatsapp'; provider: WhatsappProvider };

/** The stored credential of an SMS channel (encrypted as one JSON string). */
export interface TwilioCredentials {
  account_sid: string;
  auth_token: string;
}

/** The stored credential of a voice channel: Twilio's, with what the calls need (encrypted as one JSON string). */
export interface VoiceChannelSettings extends TwilioCredentials {
  forward_to: string | null;
  greeting: string | null;
  language: string | null;
}

/**
 * Owns the tenant's connected WhatsApp numbers and their encrypted credentials. Every method that reads or writes
 * a tenant's channels takes the tenant; the one exception, `findByPhoneNumberId`, is how a provider notification
 * is attributed to its tenant in the first place.
 */
@Injectable()
export class ChannelsService {
  private readonly logger = new Logger(ChannelsService.name);
  private readonly changeListeners: (() => void)[] = [];

  constructor(
    private readonly store: ChannelsStore,
    private readonly cipher: CredentialCipher,
    private readonly sandbox: SandboxNumbersClient,
    private readonly config: MessagingServiceConfig,
    private readonly publisher: EventPublisher,
    private readonly cursors: ListCursors,
  ) {}

  /**
   * Gives the tenant a sandbox number of its own. Idempotent per tenant: a retried call (e.g. after a time-out)
   * answers the sandbox channel the first call made instead of provisioning a second number.
   */
  async provisionSandbox(tenantId: string): Promise<ChannelView> {
    if (!this.config.SANDBOX_ENABLED) throw sandboxDisabled();
    const channel = await this.store.transaction(async (tx) => {
      await this.store.lockTenant(tenantId, tx);
      const existing = await this.store.firstSandbox(tenantId, tx);
      if (existing) return existing;
      const number = await this.sandbox.provision();
      return this.insert(
        tenantId,
        {
          provider: 'sandbox',
          phone_number: number.phone_number,
          phone_number_id: number.phone_number_id,
          access_token: SANDBOX_ACCESS_TOKEN,
        },
        tx,
      );
    });
    await this.changed(tenantId);
    return toChannelRecord(channel);
  }

  /** Registers a callback run after any channel was connected, changed or removed (caches of lookups clear). */
  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /**
   * After a committed change of the tenant's channels: tells this instance's listeners, then publishes
   * `channel.changed` for each of the tenant's channels (a change can move the default between two of them) and a
   * `channel: null` one for a removed channel. Awaited, so once a change is answered the other services can know it
   * (the gateway stops accepting a removed `from`); a failed publish cannot undo the committed change, and the event's
   * readers bound their staleness with a TTL of their own.
   */
  private async changed(tenantId: string, removed?: ChannelEntity): Promise<void> {
    for (const listener of this.changeListeners) listener();
    try {
      const current = await this.store.all(tenantId);
      const data: ChannelChangedData[] = current.map((c) => ({ tenant_id: tenantId, channel_id: c.id, phone_number: c.phoneNumber, channel: toChannelRecord(c) }));
      if (removed) data.push({ tenant_id: tenantId, channel_id: removed.id, phone_number: removed.phoneNumber, channel: null });
      const options = { timeoutMs: CHANGE_PUBLISH_TIMEOUT_MS };
      // Published in one tick, so they share a produce request.
      await Promise.all(data.map((d) => this.publisher.publishEvent(EventPublisher.envelope(Topics.ChannelChanged, tenantId, d), `${tenantId}:${d.channel_id}`, undefined, options)));
    } catch (err) {
      this.logger.warn(`channel.changed of tenant ${tenantId} not published (its readers see the change after their TTL): ${String(err)}`);
    }
  }

  /**
   * `POST /api/v1/channels/whatsapp`: a `meta` number with its business token, a `360dialog` number with its API key
   * (and a fresh inbound token, answered only here), or a new sandbox number provisioned by the sandbox.
   */
  async connectRequested(tenantId: string, body: ConnectChannelRequest): Promise<ConnectedChannelRecord> {
    const common = { agent: body.agent ?? null, is_default: body.is_default, waba_id: body.waba_id ?? null };
    switch (body.provider) {
      case 'sandbox': {
        if (!this.config.SANDBOX_ENABLED) throw sandboxDisabled();
        // A requested number is the sandbox's when it serves it already: connected to another tenant, it is a 409 below.
        const number = await this.sandbox.provision(body.phone_number);
        return this.connect(tenantId, { ...common, provider: 'sandbox', phone_number: number.phone_number, phone_number_id: number.phone_number_id, access_token: SANDBOX_ACCESS_TOKEN });
      }
      case 'meta':
        requireFields(body, ['phone_number', 'phone_number_id', 'access_token']);
        return this.connect(tenantId, { ...common, provider: 'meta', phone_number: body.phone_number!, phone_number_id: body.phone_number_id!, access_token: body.access_token! });
      case '360dialog': {
        requireFields(body, ['phone_number', 'access_token']);
        const inboundToken = `cht_${randomBytes(32).toString('base64url')}`;
        const record = await this.connect(tenantId, {
          ...common,
          provider: '360dialog',
          phone_number: body.phone_number!,
          phone_number_id: body.phone_number_id ?? null,
          access_token: body.access_token!,
          inbound_token_sha256: sha256(inboundToken),
        });
        return { ...record, inbound_token: inboundToken };
      }
      default:
        throw invalid([{ field: 'provider', message: 'provider must be one of: meta, 360dialog, sandbox' }]);
    }
  }

  /**
   * `POST /api/v1/channels/sms` (CONTRACT.md §17): a Twilio number with its account SID and auth token (stored
   * encrypted together), or a sandbox number, which uses the sandbox's Twilio credentials.
   */
  connectSms(tenantId: string, body: ConnectSmsChannelRequest): Promise<ChannelView> {
    if (body.provider === 'sandbox' && !this.config.SANDBOX_ENABLED) throw sandboxDisabled();
    if (body.provider !== 'sandbox' && body.provider !== 'twilio') throw invalid([{ field: 'provider', message: 'provider must be one of: twilio, sandbox' }]);
    if (body.provider === 'twilio') requireFields(body as unknown as Record<string, unknown>, ['phone_number', 'account_sid', 'auth_token'], 'twilio');
    const credentials: TwilioCredentials =
      body.provider === 'sandbox'
        ? { account_sid: this.config.SANDBOX_TWILIO_ACCOUNT_SID, auth_token: this.config.SANDBOX_TWILIO_AUTH_TOKEN }
        : { account_sid: body.account_sid!, auth_token: body.auth_token! };
    return this.connect(tenantId, { kind: 'sms', provider: body.provider, phone_number: body.phone_number, phone_number_id: null, access_token: JSON.stringify(credentials), agent: body.agent ?? null });
  }

  /**
   * `POST /api/v1/channels/voice` (CONTRACT.md §17): a Twilio number whose calls the agent answers (or a sandbox one,
   * signed with the sandbox's Twilio token), with where a handoff is dialled, the greeting and the spoken language.
   */
  connectVoice(tenantId: string, body: ConnectVoiceChannelRequest): Promise<ChannelView> {
    if (body.provider === 'sandbox' && !this.config.SANDBOX_ENABLED) throw sandboxDisabled();
    if (body.provider !== 'sandbox' && body.provider !== 'twilio') throw invalid([{ field: 'provider', message: 'provider must be one of: twilio, sandbox' }]);
    if (body.provider === 'twilio') requireFields(body as unknown as Record<string, unknown>, ['phone_number', 'account_sid', 'auth_token'], 'twilio');
    const settings: VoiceChannelSettings = {
      ...(body.provider === 'sandbox'
        ? { account_sid: this.config.SANDBOX_TWILIO_ACCOUNT_SID, auth_token: this.config.SANDBOX_TWILIO_AUTH_TOKEN }
        : { account_sid: body.account_sid!, auth_token: body.auth_token! }),
      forward_to: body.forward_to ? normalisePhone(body.forward_to) : null,
      greeting: body.greeting?.trim() || null,
      language: body.language?.trim() || null,
    };
    return this.connect(tenantId, { kind: 'voice', provider: body.provider, phone_number: body.phone_number, phone_number_id: null, access_token: JSON.stringify(settings), agent: body.agent ?? null });
  }

  /** A voice channel's settings (its Twilio token included: for verifying its webhooks here only). */
  voiceSettings(channel: ChannelEntity): VoiceChannelSettings {
    return JSON.parse(this.cipher.decrypt(channel.credentialsEncrypted)) as VoiceChannelSettings;
  }

  /** `POST /api/v1/channels/email` (CONTRACT.md §17): an address sent from through `smtp_url` (encrypted), or the sandbox's SMTP sink. */
  connectEmail(tenantId: string, body: ConnectEmailChannelRequest): Promise<ChannelView> {
    if (body.provider === 'sandbox' && !this.config.SANDBOX_ENABLED) throw sandboxDisabled();
    if (body.provider !== 'sandbox' && body.provider !== 'smtp') throw invalid([{ field: 'provider', message: 'provider must be one of: smtp, sandbox' }]);
    if (body.provider === 'smtp') requireFields(body as unknown as Record<string, unknown>, ['address', 'smtp_url'], 'smtp');
    const smtpUrl = body.provider === 'sandbox' ? this.config.SANDBOX_SMTP_URL : body.smtp_url!;
    return this.connect(tenantId, { kind: 'email', provider: body.provider, phone_number: body.address, phone_number_id: null, access_token: smtpUrl, agent: body.agent ?? null });
  }

  /**
   * Whether a Twilio webhook is signed with the auth token of the SMS channel that has `phoneNumber` (CONTRACT.md §17).
   * Answers the channel when it is; the token is decrypted here only and never leaves.
   */
  async verifyTwilioSignature(check: { urls: string[]; params: Record<string, string>; signature: string; phone_number: string }): Promise<{ valid: boolean; channel_id: string | null }> {
    if (typeof check?.phone_number !== 'string' || typeof check.signature !== 'string' || !Array.isArray(check.urls)) return { valid: false, channel_id: null };
    const channel = await this.findByAddress('sms', check.phone_number);
    if (!channel) return { valid: false, channel_id: null };
    const { auth_token } = JSON.parse(this.cipher.decrypt(channel.credentialsEncrypted)) as TwilioCredentials;
    const valid = check.urls.some((url) => typeof url === 'string' && isValidTwilioSignature(auth_token, url, check.params ?? {}, check.signature));
    return valid ? { valid, channel_id: channel.id } : { valid, channel_id: null };
  }

  /** The connected SMS or email channel with this number or address (inbound attribution; one tenant per address). */
  findByAddress(kind: 'sms' | 'email' | 'voice', address: string): Promise<ChannelEntity | null> {
    return this.store.findConnectedByAddress(kind, normaliseAddress(address));
  }

  /** Stores a connected number with its credential encrypted. The tenant's first channel becomes its default. */
  async connect(tenantId: string, input: ConnectChannelInput): Promise<ChannelView> {
    try {
      const channel = await this.store.transaction(async (tx) => {
        await this.store.lockTenant(tenantId, tx);
        return this.insert(tenantId, input, tx);
      });
      await this.changed(tenantId);
      return toChannelRecord(channel);
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { code?: string })?.code === '23505') {
        // A sandbox caller names the number only by phone_number; the others by its Graph id.
        const kind = input.kind ?? 'whatsapp';
        const [field, value] =
          kind === 'email' ? ['address', input.phone_number] : kind === 'sms' || kind === 'voice' || input.provider === 'sandbox' ? ['phone_number', input.phone_number] : ['phone_number_id', input.phone_number_id];
        const what = kind === 'email' ? 'email address' : kind === 'sms' ? 'SMS number' : kind === 'voice' ? 'voice number' : 'WhatsApp number';
        throw new ProblemException(
          problem(409, ProblemTypes.conflict, 'Conflict', `The ${what} with ${field} ${value} is already connected.`, [
            { field, message: 'this number is already connected' },
          ]),
        );
      }
      throw err;
    }
  }

  /** Whether a number is connected already (to any tenant): embedded signup checks before it registers anything. */
  isConnected(phoneNumberId: string): Promise<boolean> {
    return this.store.phoneNumberIdTaken(phoneNumberId);
  }

  /** `PATCH /api/v1/channels/{id}`: the answering agent, the default (moved, never two), the send limit. */
  async update(tenantId: string, channelId: string, body: UpdateChannelRequest): Promise<ChannelView> {
    const channel = await this.store.transaction(async (tx) => {
      await this.store.lockTenant(tenantId, tx);
      const row = await this.store.find(tenantId, channelId, tx);
      if (!row) throw new ProblemException(notFoundProblem(`The channel ${channelId}`));
      if (body.agent !== undefined) row.agent = body.agent;
      if (body.send_limit_per_second !== undefined) row.sendLimitPerSecond = body.send_limit_per_second;
      if (body.is_default === true && !row.isDefault) {
        await this.store.clearDefault(tenantId, row.kind, tx);
        row.isDefault = true;
      }
      return this.store.save(tenantId, row, tx);
    });
    await this.changed(tenantId);
    return toChannelRecord(channel);
  }

  /**
   * `DELETE /api/v1/channels/{id}`: the row and its credentials go; its messages stay (without a channel). When the
   * default goes, the oldest remaining channel becomes the default, so sends without `from` keep working.
   */
  async remove(tenantId: string, channelId: string): Promise<void> {
    const removed = await this.store.transaction(async (tx) => {
      await this.store.lockTenant(tenantId, tx);
      const row = await this.store.find(tenantId, channelId, tx);
      if (!row) throw new ProblemException(notFoundProblem(`The channel ${channelId}`));
      await this.store.delete(tenantId, channelId, tx);
      if (row.isDefault) {
        const next = await this.store.oldest(tenantId, row.kind, tx);
        if (next) await this.store.makeDefault(tenantId, next.id, tx);
      }
      return row;
    });
    this.logger.log(`disconnected channel ${channelId} of tenant ${tenantId}`);
    await this.changed(tenantId, removed);
  }

  /** Whether `token` is the inbound token of 360dialog channel `channelId` (constant time; only hashes are stored). */
  async verifyInboundToken(channelId: string, token: string): Promise<boolean> {
    if (typeof channelId !== 'string' || typeof token !== 'string' || !hasPrefix(channelId, 'chn')) return false;
    const row = await this.store.find360dialog(channelId);
    if (!row?.inboundTokenSha256) return false;
    return timingSafeEqual(Buffer.from(sha256(token), 'hex'), Buffer.from(row.inboundTokenSha256, 'hex'));
  }

  /** A 360dialog notification's channel, named by its URL. */
  findById(channelId: string): Promise<ChannelEntity | null> {
    return this.store.findById(channelId);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<ChannelView>> {
    const take = pageLimit(limit);
    const cursors = this.cursors.of(tenantId, 'channels');
    const after = cursors.after(cursor);
    const rows = await this.store.list(tenantId, take + 1, after);
    return { data: rows.slice(0, take).map(toChannelRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  /** The tenant's channel with this number (the `from` of a send), else 404. */
  async resolveSender(tenantId: string, phoneNumber: string): Promise<ChannelView> {
    if (typeof phoneNumber !== 'string' || !phoneNumber.trim()) throw invalid([{ field: 'phone_number', message: 'phone_number must be an E.164 number' }]);
    const channel = await this.store.findConnected(tenantId, { phoneNumber: normaliseAddress(phoneNumber) });
    if (!channel) throw new ProblemException(notFoundProblem(`The WhatsApp number ${phoneNumber}`));
    return toChannelRecord(channel);
  }

  /** The channel an outbound message goes out on: the named channel, else the number `from`, else the default. */
  async findForSend(tenantId: string, choice: SenderChoice): Promise<SendingChannel | null> {
    const kind = choice.kind ?? 'whatsapp';
    const match: ChannelMatch = choice.channelId ? { id: choice.channelId } : choice.from ? { kind, phoneNumber: normaliseAddress(choice.from) } : { kind, isDefault: true };
    const channel = await this.store.findConnected(tenantId, match);
    if (!channel) return null;
    return {
      id: channel.id,
      phoneNumber: channel.phoneNumber,
      sendLimitPerSecond: channel.sendLimitPerSecond,
      sender: { kind: channel.kind, provider: channel.provider, phoneNumberId: channel.phoneNumberId, address: channel.phoneNumber, accessToken: this.cipher.decrypt(channel.credentialsEncrypted) },
    };
  }

  /**
   * A connected WhatsApp channel of the tenant with its decrypted token (`channelId`, else the number `from`, else the
   * default): what template routes work with.
   */
  async findWithToken(tenantId: string, choice: SenderChoice): Promise<{ channel: WhatsappChannelEntity; accessToken: string } | null> {
    const match: ChannelMatch = choice.channelId ? { id: choice.channelId } : choice.from ? { phoneNumber: normalisePhone(choice.from) } : { isDefault: true };
    const channel = await this.store.findConnected(tenantId, { ...match, kind: 'whatsapp' });
    return channel ? { channel: channel as WhatsappChannelEntity, accessToken: this.cipher.decrypt(channel.credentialsEncrypted) } : null;
  }

  /** Attribution of a provider notification: the channel (and so the tenant) that owns the number. */
  findByPhoneNumberId(phoneNumberId: string): Promise<ChannelEntity | null> {
    return this.store.findByPhoneNumberId(phoneNumberId);
  }

  private async insert(tenantId: string, input: ConnectChannelInput, tx: EntityManager): Promise<ChannelEntity> {
    const kind = input.kind ?? 'whatsapp';
    const hasDefault = await this.store.hasDefault(tenantId, kind, tx);
    const makeDefault = !hasDefault || input.is_default === true;
    if (makeDefault && hasDefault) await this.store.clearDefault(tenantId, kind, tx);
    const channel: NewChannel = {
      id: newId('chn'),
      kind,
      provider: input.provider,
      phoneNumber: normaliseAddress(input.phone_number),
      phoneNumberId: input.phone_number_id,
      wabaId: input.waba_id ?? null,
      credentialsEncrypted: this.cipher.encrypt(input.access_token),
      agent: input.agent ?? null,
      isDefault: makeDefault,
      status: 'connected',
      sendLimitPerSecond: null,
      inboundTokenSha256: input.inbound_token_sha256 ?? null,
      registrationPinEncrypted: input.registration_pin ? this.cipher.encrypt(input.registration_pin) : null,
    };
    const saved = await this.store.insert(tenantId, channel, tx);
    this.logger.log(`connected channel ${saved.id} (${saved.provider}) for tenant ${tenantId}${makeDefault ? ' as its default' : ''}`);
    return saved;
  }
}

function sandboxDisabled(): ProblemException {
  return new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', 'The WhatsApp sandbox is not enabled on this installation.'));
}

/** The gateway validates bodies; this repeats the provider-specific requirements for any other caller. */
function requireFields(body: ConnectChannelRequest | Record<string, unknown>, fields: string[], provider: string = (body as ConnectChannelRequest).provider): void {
  const values = body as Record<string, unknown>;
  const missing = fields.filter((f) => typeof values[f] !== 'string' || !(values[f] as string).trim());
  if (missing.length) throw invalid(missing.map((field) => ({ field, message: `${field} is required for ${provider} channels` })));
}
