import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import type { EmailProvider, SmsProvider, VoiceProvider, WhatsappProvider } from '../events/messages';
import { AGENT_NAME_PATTERN, AGENT_NAME_RULE } from './agents.dto';
import { IsE164 } from './validators';

export const WHATSAPP_PROVIDERS: readonly WhatsappProvider[] = ['meta', '360dialog', 'sandbox'];

/** Graph ids (phone number, WABA) are decimal strings. */
const GRAPH_ID = /^\d{1,32}$/;

/** Body of `POST /api/v1/channels/whatsapp` (CONTRACT.md §6). Which credentials are required depends on the provider. */
export class ConnectWhatsappChannelBody {
  @IsIn(WHATSAPP_PROVIDERS, { message: `provider must be one of: ${WHATSAPP_PROVIDERS.join(', ')}` })
  provider!: WhatsappProvider;

  /** The number itself; for a sandbox channel optional (the sandbox picks a free number when it is omitted). */
  @ValidateIf((o: ConnectWhatsappChannelBody) => o.provider !== 'sandbox' || o.phone_number !== undefined)
  @IsE164()
  phone_number!: string;

  /** Required for `meta` (the Cloud API sends to it); 360dialog numbers may omit it (the channel id stands in). */
  @ValidateIf((o: ConnectWhatsappChannelBody) => o.provider === 'meta' || o.phone_number_id !== undefined)
  @IsString()
  @Matches(GRAPH_ID, { message: 'phone_number_id must be the Graph id of the number (digits)' })
  phone_number_id?: string;

  @IsOptional()
  @IsString()
  @Matches(GRAPH_ID, { message: 'waba_id must be the Graph id of the WhatsApp Business Account (digits)' })
  waba_id?: string;

  /** `meta`: the business token; `360dialog`: the channel's API key. Stored encrypted, never returned. */
  @ValidateIf((o: ConnectWhatsappChannelBody) => o.provider !== 'sandbox' || o.access_token !== undefined)
  @IsString({ message: 'access_token is required for meta (a business token) and 360dialog (the API key)' })
  @Length(1, 4096)
  access_token?: string;

  @IsOptional()
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `agent ${AGENT_NAME_RULE}` })
  agent?: string;

  @IsOptional()
  @IsBoolean()
  is_default?: boolean;
}

/** Body of `PATCH /api/v1/channels/{id}`: `agent: null` clears the channel's agent (the tenant's oldest answers). */
export class UpdateChannelBody {
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `agent ${AGENT_NAME_RULE}` })
  agent?: string | null;

  /** Only `true` is meaningful: a tenant always has one default while it has channels. */
  @IsOptional()
  @IsIn([true], { message: 'is_default can only be set to true (make another channel the default to move it)' })
  is_default?: boolean;

  /** Messages per second this number may send (absent: the provider default; null: back to it). */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  @Min(1)
  @Max(1000)
  send_limit_per_second?: number | null;
}

/** Body of `POST /api/v1/channels/whatsapp/embedded-signup` (CONTRACT.md §6). */
export class EmbeddedSignupBody {
  @IsString()
  @Length(1, 2048)
  code!: string;

  @IsString()
  @Matches(GRAPH_ID, { message: 'waba_id must be the Graph id of the WhatsApp Business Account (digits)' })
  waba_id!: string;

  @IsString()
  @Matches(GRAPH_ID, { message: 'phone_number_id must be the Graph id of the number (digits)' })
  phone_number_id!: string;
}

export const SMS_PROVIDERS: readonly SmsProvider[] = ['twilio', 'sandbox'];
export const EMAIL_PROVIDERS: readonly EmailProvider[] = ['smtp', 'sandbox'];
export const VOICE_PROVIDERS: readonly VoiceProvider[] = ['twilio', 'sandbox'];

/** Body of `POST /api/v1/channels/sms` (CONTRACT.md §17): a Twilio number with its account SID and auth token. */
export class ConnectSmsChannelBody {
  @IsIn(SMS_PROVIDERS, { message: `provider must be one of: ${SMS_PROVIDERS.join(', ')}` })
  provider!: SmsProvider;

  @IsE164()
  phone_number!: string;

  @ValidateIf((o: ConnectSmsChannelBody) => o.provider === 'twilio' || o.account_sid !== undefined)
  @IsString()
  @Matches(/^AC[0-9a-fA-F]{32}$/, { message: 'account_sid must be a Twilio account SID (AC followed by 32 hex digits)' })
  account_sid?: string;

  @ValidateIf((o: ConnectSmsChannelBody) => o.provider === 'twilio' || o.auth_token !== undefined)
  @IsString({ message: 'auth_token is required for twilio channels' })
  @Length(1, 256)
  auth_token?: string;

  @IsOptional()
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `agent ${AGENT_NAME_RULE}` })
  agent?: string;
}

/** Body of `POST /api/v1/channels/email` (CONTRACT.md §17): the address, and for `smtp` the relay to send through. */
export class ConnectEmailChannelBody {
  @IsIn(EMAIL_PROVIDERS, { message: `provider must be one of: ${EMAIL_PROVIDERS.join(', ')}` })
  provider!: EmailProvider;

  @IsEmail({}, { message: 'address must be an email address' })
  @Length(3, 254)
  address!: string;

  @ValidateIf((o: ConnectEmailChannelBody) => o.provider === 'smtp' || o.smtp_url !== undefined)
  @IsString({ message: 'smtp_url is required for smtp channels' })
  @Matches(/^smtps?:\/\/[^\s]+$/, { message: 'smtp_url must be an smtp:// or smtps:// URL (credentials may be in it)' })
  @Length(1, 2048)
  smtp_url?: string;

  @IsOptional()
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `agent ${AGENT_NAME_RULE}` })
  agent?: string;
}

/** Body of `POST /api/v1/channels/voice` (CONTRACT.md §17): a Twilio number whose calls the agent answers. */
export class ConnectVoiceChannelBody {
  @IsIn(VOICE_PROVIDERS, { message: `provider must be one of: ${VOICE_PROVIDERS.join(', ')}` })
  provider!: VoiceProvider;

  @IsE164()
  phone_number!: string;

  @ValidateIf((o: ConnectVoiceChannelBody) => o.provider === 'twilio' || o.account_sid !== undefined)
  @IsString()
  @Matches(/^AC[0-9a-fA-F]{32}$/, { message: 'account_sid must be a Twilio account SID (AC followed by 32 hex digits)' })
  account_sid?: string;

  @ValidateIf((o: ConnectVoiceChannelBody) => o.provider === 'twilio' || o.auth_token !== undefined)
  @IsString({ message: 'auth_token is required for twilio channels' })
  @Length(1, 256)
  auth_token?: string;

  /** Where a caller who asks for a person is connected. */
  @IsOptional()
  @IsE164()
  forward_to?: string;

  @IsOptional()
  @IsString()
  @Length(1, 500)
  greeting?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, { message: 'language must be a language tag such as en-US or en' })
  language?: string;

  @IsOptional()
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `agent ${AGENT_NAME_RULE}` })
  agent?: string;
}
