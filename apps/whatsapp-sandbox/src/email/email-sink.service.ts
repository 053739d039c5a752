import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { simpleParser, type AddressObject } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { EmailsStore, type ReceivedEmail } from './emails.store';

/** A mail the sink recorded, as the test routes show it. */
export type SandboxEmail = ReceivedEmail & { received_at: string };

/** What messaging-service's SMTP listener answered a played customer's mail. */
export interface InboundEmailAnswer {
  accepted: boolean;
  /** The SMTP reply code (250 when taken). */
  code: number;
  response: string;
  message_id: string | null;
}

/**
 * The sandbox's email side (CONTRACT.md §17): a real SMTP sink (SANDBOX_SMTP_PORT, 2526) that records every mail a
 * business sends, and a real SMTP client that plays a customer mailing a business address.
 */
@Injectable()
export class EmailSinkService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmailSinkService.name);
  private server: SMTPServer | null = null;
  private boundPort = 0;

  constructor(
    private readonly emails: EmailsStore,
    private readonly config: WhatsappSandboxConfig,
  ) {}

  get port(): number {
    return this.boundPort;
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      // Any credentials in a channel's smtp_url are fine here, as any bearer token is on the Cloud API routes.
      onAuth: (_auth, _session, callback) => callback(null, { user: 'sandbox' }),
      logger: false,
      banner: 'Parley sandbox SMTP sink',
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          this.record(raw, session.envelope.mailFrom ? session.envelope.mailFrom.address : null, session.envelope.rcptTo.map((r) => r.address)).then(
            () => callback(null),
            (err: unknown) => callback(Object.assign(new Error(`4.3.0 not recorded: ${String(err)}`), { responseCode: 451 })),
          );
        });
      },
    });
    server.on('error', (err) => this.logger.warn(`SMTP sink: ${String(err)}`));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.config.SANDBOX_SMTP_PORT, this.config.HOST, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.boundPort = (server.server.address() as AddressInfo).port;
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async list(to?: string): Promise<SandboxEmail[]> {
    const rows = await this.emails.list(to?.trim() || null);
    return rows.map(({ id: _id, received_at, ...rest }) => ({ ...rest, received_at: received_at.toISOString() }));
  }

  /** Sends a customer's mail to the business address through messaging-service's SMTP listener, as a mail server would. */
  async send(mail: { from: string; to: string; subject: string; text: string; in_reply_to?: string; attachment_bytes?: number }): Promise<InboundEmailAnswer> {
    const transport = createTransport(this.config.MESSAGING_SMTP_URL, { connectionTimeout: 10_000, socketTimeout: 60_000 });
    try {
      const info = (await transport.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.in_reply_to ? { inReplyTo: mail.in_reply_to, references: [mail.in_reply_to] } : {}),
        ...(mail.attachment_bytes ? { attachments: [{ filename: 'padding.bin', content: Buffer.alloc(mail.attachment_bytes, 7) }] } : {}),
      })) as { response: string; messageId: string };
      return { accepted: true, code: Number(info.response.slice(0, 3)) || 250, response: info.response, message_id: info.messageId };
    } catch (err) {
      const e = err as { responseCode?: number; response?: string; message?: string };
      if (typeof e.responseCode !== 'number') throw err;
      return { accepted: false, code: e.responseCode, response: e.response ?? e.message ?? '', message_id: null };
    } finally {
      transport.close();
    }
  }

  private async record(raw: Buffer, envelopeFrom: string | null, envelopeTo: string[]): Promise<void> {
    const mail = await simpleParser(raw);
    await this.emails.insert({
      envelope_from: envelopeFrom,
      envelope_to: envelopeTo.map((a) => a.toLowerCase()),
      from: addressText(mail.from),
      to: addressText(mail.to),
      subject: mail.subject ?? null,
      text: mail.text ?? null,
      html: typeof mail.html === 'string' ? mail.html : null,
      message_id: mail.messageId ?? null,
      in_reply_to: mail.inReplyTo ?? null,
      size: raw.length,
    });
  }
}

function addressText(value: AddressObject | AddressObject[] | undefined): string | null {
  if (!value) return null;
  return (Array.isArray(value) ? value : [value]).map((a) => a.text).join(', ');
}
