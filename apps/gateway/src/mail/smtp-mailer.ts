import { createTransport, type Transporter } from 'nodemailer';

/** A mail's parts: every mail has a plain-text and an HTML part. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** How long the SMTP server gets to answer: to connect and greet, and then each exchange. */
export const SMTP_TIMEOUT_MS = 15_000;

/** Why an attempt failed, and whether trying again later can help. */
export class MailFailure extends Error {
  constructor(
    message: string,
    /** 4xx answers and a server that could not be reached are worth retrying; a 5xx refusal is final. */
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** What an SMTP attempt's error means: the server's reply code, or no answer at all. */
export function mailFailure(err: unknown): MailFailure {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  if (typeof e.responseCode === 'number') {
    return new MailFailure(`the SMTP server answered ${(e.response ?? String(e.responseCode)).replace(/\s+/g, ' ').slice(0, 200)}`, e.responseCode < 500);
  }
  return new MailFailure(`the SMTP server could not be reached (${e.code ?? 'error'}: ${(e.message ?? String(err)).slice(0, 200)})`, true);
}

/**
 * Sends the platform's own mail over SMTP with nodemailer (MAIL_SMTP_URL): a plain-text part and an HTML part, from
 * MAIL_FROM. One connection per mail (mail is rare here); its errors become MailFailures.
 */
export class SmtpMailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = createTransport(smtpUrl, { connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS * 2 });
  }

  async send(to: string, content: MailContent): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to, subject: content.subject, text: content.text, html: content.html });
    } catch (err) {
      throw mailFailure(err);
    }
  }

  close(): void {
    this.transport.close();
  }
}
