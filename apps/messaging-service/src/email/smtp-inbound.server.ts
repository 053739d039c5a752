import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { EmailInboundService, RecipientUnknownError } from './email-inbound.service';

/** An SMTP error reply: smtp-server answers the client with `responseCode` and the message. */
function smtpReply(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * The inbound mail listener (CONTRACT.md §17, `SMTP_PORT`): a real SMTP server that takes mail for the addresses of
 * connected email channels (550 for any other recipient, 552 above SMTP_MAX_MESSAGE_BYTES) and answers 250 only once
 * the message is stored and announced, so an accepted mail is never lost (the sending server retries on a 4xx).
 */
@Injectable()
export class SmtpInboundServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SmtpInboundServer.name);
  private server: SMTPServer | null = null;
  private boundPort = 0;

  constructor(
    private readonly config: MessagingServiceConfig,
    private readonly inbound: EmailInboundService,
  ) {}

  /** The port it listens on (SMTP_PORT, or the one picked for SMTP_PORT=0). */
  get port(): number {
    return this.boundPort;
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: this.config.SMTP_MAX_MESSAGE_BYTES,
      banner: 'Parley inbound mail',
      logger: false,
      onRcptTo: (address: SMTPServerAddress, _session: SMTPServerSession, callback: (err?: Error) => void) => {
        this.inbound.acceptsRecipient(address.address).then(
          (known) => callback(known ? undefined : smtpReply(550, `5.1.1 <${address.address}>: no such mailbox here`)),
          (err: unknown) => callback(smtpReply(451, `4.3.0 temporarily unable to check the recipient: ${String(err)}`)),
        );
      },
      onData: (stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (stream.sizeExceeded) return callback(smtpReply(552, `5.3.4 message exceeds the ${this.config.SMTP_MAX_MESSAGE_BYTES}-byte limit`));
          const recipients = session.envelope.rcptTo.map((r) => r.address);
          this.inbound.receive(Buffer.concat(chunks), recipients).then(
            () => callback(null),
            (err: unknown) => {
              if (err instanceof RecipientUnknownError) return callback(smtpReply(550, `5.1.1 ${err.message}`));
              this.logger.warn(`inbound mail not taken (the sender will retry): ${String(err)}`);
              callback(smtpReply(451, '4.3.0 temporarily unable to take the message, try again later'));
            },
          );
        });
      },
    });
    server.on('error', (err) => this.logger.warn(`SMTP listener: ${String(err)}`));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.config.SMTP_PORT, this.config.SMTP_HOST, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.boundPort = (server.server.address() as AddressInfo).port;
    this.logger.log(`inbound SMTP listening on ${this.config.SMTP_HOST}:${this.boundPort}`);
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
