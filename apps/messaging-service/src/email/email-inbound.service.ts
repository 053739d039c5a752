import { Injectable, Logger } from '@nestjs/common';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { createHash } from 'node:crypto';
import type { ChannelEntity } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { InboundMessagesService } from '../inbound/inbound-messages.service';
import type { NormalisedInbound } from '../inbound/normalise';
import { MediaService } from '../media/media.service';
import { EmailStore } from './email.store';
import { mailAuthentication } from './mail-authentication';
import { stripQuotedHistory } from './quoted-text';

/** No connected email channel has any of the mail's recipients (answered 550 at SMTP). */
export class RecipientUnknownError extends Error {
  override name = 'RecipientUnknownError';
}

/**
 * A customer's email to a connected email channel: parsed with mailparser, its quoted history stripped, and then
 * stored and announced like any inbound message (`message.inbound` with `channel: "email"`), so the same agent,
 * conversation and `message.received` follow. The Message-ID is the provider id: a mail delivered twice is one message.
 */
@Injectable()
export class EmailInboundService {
  private readonly logger = new Logger(EmailInboundService.name);

  constructor(
    private readonly channels: ChannelsService,
    private readonly inbound: InboundMessagesService,
    private readonly media: MediaService,
    private readonly store: EmailStore,
  ) {}

  async acceptsRecipient(address: string): Promise<boolean> {
    return (await this.channels.findByAddress('email', address)) !== null;
  }

  /** Stores and announces the mail once per recipient channel; throws when none is ours or storing fails. */
  async receive(raw: Buffer, recipients: string[]): Promise<void> {
    const channels = (await Promise.all(recipients.map((r) => this.channels.findByAddress('email', r)))).filter((c) => c !== null);
    if (channels.length === 0) throw new RecipientUnknownError('no recipient is a connected email address');
    const mail = await simpleParser(raw);
    const message = normaliseMail(mail, raw);
    if (!message) {
      this.logger.warn('skipping an inbound mail without a sender address');
      return;
    }
    const receivedAt = new Date().toISOString();
    const authentication = mailAuthentication(mail.headerLines);
    for (const channel of channels) {
      await this.inbound.receive(channel, message, receivedAt);
      await this.keepExtras(channel, message.providerMessageId, mail, authentication);
    }
  }

  /**
   * The mail's attachments into the media store (the tenant's, deduplicated by content) and its SPF/DKIM results,
   * recorded with the stored message. Idempotent: a mail delivered again stores the same records.
   */
  private async keepExtras(channel: ChannelEntity, providerMessageId: string, mail: ParsedMail, authentication: ReturnType<typeof mailAuthentication>): Promise<void> {
    const attachments = [];
    for (const a of mail.attachments ?? []) {
      const stored = await this.media.storeBytes(channel.tenantId, a.content, a.contentType || 'application/octet-stream', a.filename ?? null);
      attachments.push({ id: stored.id, mime_type: stored.mime_type, size: stored.size, filename: stored.filename });
    }
    if (attachments.length === 0 && !authentication) return;
    await this.store.recordExtras(channel.id, providerMessageId, attachments.length > 0 ? attachments : null, authentication);
  }
}

/** The mail in our terms: the sender's address, the new text (HTML-only mail read as text), the subject. */
export function normaliseMail(mail: ParsedMail, raw: Buffer): NormalisedInbound | null {
  const sender = firstAddress(mail.from);
  if (!sender) return null;
  const body = mail.text ?? (typeof mail.html === 'string' ? mail.html.replace(/<[^>]+>/g, ' ') : '');
  const text = stripQuotedHistory(body) || body.trim() || (mail.subject ?? '');
  const attachments = mail.attachments?.length ?? 0;
  return {
    providerMessageId: mail.messageId ?? `<sha256.${createHash('sha256').update(raw).digest('hex')}>`,
    from: sender.address.toLowerCase(),
    fromUserId: null,
    type: 'text',
    text: attachments > 0 ? `${text}${text ? ' ' : ''}[${attachments} attachment${attachments > 1 ? 's' : ''}]` : text,
    sentAt: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toISOString() : null,
    contactName: sender.name || null,
    subject: mail.subject ?? null,
  };
}

function firstAddress(from: AddressObject | AddressObject[] | undefined): { address: string; name: string } | null {
  const list = Array.isArray(from) ? from : from ? [from] : [];
  for (const group of list) for (const a of group.value) if (a.address) return { address: a.address, name: a.name };
  return null;
}
