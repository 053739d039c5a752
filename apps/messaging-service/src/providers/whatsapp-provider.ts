import type { ChannelKind, ChannelProvider, OutboundContent } from '@parley/contracts';
import type { EmailThread } from '../email/email-threads';

/** The number a message is sent from, with its decrypted credential (never logged). */
export interface ProviderSender {
  kind: ChannelKind;
  provider: ChannelProvider;
  /** The channel's own number (E.164) or email address: the `From` of an SMS or an email. */
  address: string;
  /** The Graph id of the number (the Cloud API route names it; 360dialog's API key implies the number). */
  phoneNumberId: string | null;
  /** Cloud API: the bearer token; 360dialog: the channel's API key; SMS: the Twilio credentials (JSON); email: the SMTP URL. */
  accessToken: string;
}

export interface ProviderSendResult {
  /** The provider's message id (wamid): statuses refer to it. */
  providerMessageId: string;
}

/**
 * One WhatsApp provider (Cloud API, 360dialog, sandbox). Adapters speak the provider's wire format and nothing
 * else: which channel sends, pacing and the customer-service window are decided before a call reaches them.
 * An adapter throws ProviderError for every failure it can classify.
 */
export interface WhatsappProviderAdapter {
  /**
   * Sends one message. `correlation` (our message id) travels as Cloud API `biz_opaque_callback_data`, which the
   * provider echoes in every status of the message: how a send whose answer was lost is recognised later. `thread`:
   * an email reply's threading headers (other channels have none).
   */
  send(sender: ProviderSender, to: string, content: OutboundContent, correlation?: string, thread?: EmailThread | null): Promise<ProviderSendResult>;
}

/**
 * A provider refused or could not take a message. `retriable` errors (rate limits, provider outages, network
 * failures) may succeed later; the rest are terminal and become a `failed` status with `{code, title}`.
 * `outcomeUnknown` marks a request that may have reached the provider and been taken (a time-out, a connection
 * lost mid-request): sending it again at once could deliver the message twice.
 */
export class ProviderError extends Error {
  constructor(
    readonly code: string,
    readonly title: string,
    readonly retriable: boolean,
    /** For logs only: provider details and trace id, never credentials. */
    readonly details?: string,
    readonly outcomeUnknown = false,
  ) {
    super(`provider error ${code}: ${title}${details ? ` (${details})` : ''}`);
    this.name = 'ProviderError';
  }
}
