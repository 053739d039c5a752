import type { OutboundContent } from '@parley/contracts';
import { createTransport, type Transporter } from 'nodemailer';
import type { EmailThread } from '../email/email-threads';
import { ProviderError, type ProviderSendResult, type ProviderSender, type WhatsappProviderAdapter } from './whatsapp-provider';

/** SMTP reply codes 4xx are transient (try again later); 5xx are permanent. */
function smtpError(err: unknown): ProviderError {
  const e = err as { responseCode?: number; code?: string; response?: string; message?: string };
  if (typeof e.responseCode === 'number') {
    return new ProviderError(`smtp_${e.responseCode}`, e.response?.slice(0, 200) || 'The SMTP server refused the message', e.responseCode < 500);
  }
  // No SMTP answer at all: a refused connection never sent; a dropped one may have (unknown outcome).
  const refused = e.code === 'ECONNECTION' || e.code === 'EDNS';
  return new ProviderError('smtp_unreachable', 'The SMTP server could not be reached', true, e.message, !refused);
}

/**
 * Email over SMTP with nodemailer: each channel's `smtp_url` (decrypted) is a pooled transport, reused per URL. The
 * message id we set (`<msg_…@our domain>`, stable per message) is the provider id, and becomes `In-Reply-To` of the
 * customer's answer; a reply carries `In-Reply-To` and `References` of its thread (EmailThreads).
 */
export class SmtpEmailAdapter implements WhatsappProviderAdapter {
  private readonly transports = new Map<string, Transporter>();

  constructor(private readonly timeoutMs: number) {}

  async send(sender: ProviderSender, to: string, content: OutboundContent, correlation?: string, thread?: EmailThread | null): Promise<ProviderSendResult> {
    if (content.type !== 'text') throw new ProviderError('unsupported_content', 'Only text (and HTML) can be sent by email', false);
    const messageId = `<${correlation ?? `${Date.now()}.${Math.random().toString(36).slice(2)}`}@${domainOf(sender.address)}>`;
    try {
      await this.transport(sender.accessToken).sendMail({
        from: sender.address,
        to,
        subject: content.subject ?? '',
        text: content.text,
        ...(content.html ? { html: content.html } : {}),
        messageId,
        ...(thread ? { inReplyTo: thread.inReplyTo, references: thread.references } : {}),
      });
    } catch (err) {
      throw smtpError(err);
    }
    return { providerMessageId: messageId };
  }

  /** Closes the pooled connections (on shutdown). */
  close(): void {
    for (const transport of this.transports.values()) transport.close();
    this.transports.clear();
  }

  private transport(smtpUrl: string): Transporter {
    let transport = this.transports.get(smtpUrl);
    if (!transport) {
      transport = createTransport(smtpUrl, { connectionTimeout: this.timeoutMs, greetingTimeout: this.timeoutMs, socketTimeout: this.timeoutMs * 2 });
      this.transports.set(smtpUrl, transport);
    }
    return transport;
  }
}

function domainOf(address: string): string {
  return address.split('@')[1] ?? 'parley.local';
}
