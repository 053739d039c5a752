import { simpleParser, type ParsedMail } from 'mailparser';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail the sink took: the envelope, and the message as parsed (both parts, headers). */
export interface SunkMail {
  envelopeFrom: string | null;
  envelopeTo: string[];
  parsed: ParsedMail;
}

/**
 * A real SMTP server for tests (smtp-server, on a free port): it takes every mail and keeps it parsed, or answers the
 * next ones with a refusal (`refuseNext`: a 4xx the sender should retry, a 5xx it should not), so a test can watch a
 * sender's retries over the wire. It can go down (every connection dropped) and come back on the same port.
 */
export class SmtpSink {
  readonly mails: SunkMail[] = [];
  /** Every DATA the sink was offered, taken or refused. */
  attempts = 0;
  private refusals: { code: number; message: string }[] = [];
  private server: SMTPServer | null = null;
  /**
   * Holds the port while the sink is down, dropping every connection. A port left closed can become a client's own
   * source port (it is in the ephemeral range): a mailer retrying against it then connects to itself and waits for a
   * greeting that never comes, and the sink cannot listen there again.
   */
  private down: Server | null = null;

  private constructor(private port: number) {}

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink(0);
    await sink.listen();
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The mails sent to an address, in the order taken. */
  to(address: string): SunkMail[] {
    return this.mails.filter((m) => m.envelopeTo.includes(address.toLowerCase()));
  }

  /** Refuses the next `count` mails with `code` (e.g. 451 try again later, 550 no such user). */
  refuseNext(count: number, code: number, message = code < 500 ? 'try again later' : 'mailbox unavailable'): void {
    for (let i = 0; i < count; i++) this.refusals.push({ code, message });
  }

  /** Goes down (every connection is dropped at once) until `listen` again, on the same port. */
  async pause(): Promise<void> {
    if (!(await this.stopServer())) return;
    const down = createServer((socket) => socket.destroy());
    await listenOn(down, this.port);
    this.down = down;
  }

  async listen(): Promise<void> {
    await this.stopDown();
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        this.attempts++;
        const refusal = this.refusals.shift();
        simpleParser(stream).then(
          (parsed) => {
            if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
            this.mails.push({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              envelopeTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              parsed,
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      },
    });
    await listenOn(server.server, this.port);
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    await this.stopServer();
    await this.stopDown();
  }

  /** Closes the SMTP server, if it runs; answers whether it did. */
  private async stopServer(): Promise<boolean> {
    const server = this.server;
    this.server = null;
    if (server) await closed(server);
    return server !== null;
  }

  private async stopDown(): Promise<void> {
    const down = this.down;
    this.down = null;
    if (down) await closed(down);
  }
}

function listenOn(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const closed = (server: { close(callback: () => void): unknown }) => new Promise<void>((resolve) => server.close(() => resolve()));
