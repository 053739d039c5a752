import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { CredentialCipher, WorkerLoop, type PassOutcome } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { GatewayConfig } from '../config/gateway.config';
import { OutgoingMailStore, type ClaimedMail, type MailKind, type MailSettlement } from './outgoing-mail.store';
import { MailFailure, SMTP_TIMEOUT_MS, SmtpMailer, type MailContent } from './smtp-mailer';

/** Mails claimed per pass: mail is rare, and a pass sends them one after another. */
const CLAIM_LIMIT = 10;
/** A claim outlives a whole attempt (connect, greet, send), so a live instance's attempt is never taken over. */
export const MAIL_LEASE_MS = SMTP_TIMEOUT_MS * 4;
/**
 * Longest sleep of an idle relay (queueing a mail wakes this instance's): the sweep that finds what another instance
 * queued and could not send (it died, or the server was down when it tried). One indexed query.
 */
const SWEEP_MS = 5_000;
/** At shutdown, how long the attempt under way may finish; past it, its lease hands the mail to the next instance. */
const SHUTDOWN_WAIT_MS = 3_000;

/** A mail to send: its kind, its recipient, what it is about, its parts, and when its link stops working. */
export interface MailToSend {
  kind: MailKind;
  memberId: string | null;
  recipient: string;
  content: MailContent;
  giveUpAt: Date;
}

/** The pause after the `attempts`-th failed attempt (1-based): the schedule's entry, its last one repeating. */
export function mailRetryDelayMs(scheduleMs: readonly number[], attempts: number): number {
  return scheduleMs[Math.min(Math.max(attempts, 1), scheduleMs.length) - 1];
}

/**
 * The platform's own mail (issue 32): invitations and password resets, over SMTP (MAIL_SMTP_URL). A mail is queued in
 * the transaction that issues its link (`queue`), so the link and its mail exist both or neither, and the relay sends
 * it after the commit (`wake`): at least once, retried on MAIL_RETRY_SCHEDULE_MS while the server refuses for now or
 * cannot be reached, until its link expires; a permanent refusal (5xx) is logged and dropped. Any instance sends what
 * any instance queued; one that dies mid-send leaves the mail to the next after its lease.
 */
@Injectable()
export class PlatformMail implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PlatformMail.name);
  private readonly cipher: CredentialCipher;
  private readonly mailer: SmtpMailer | null;
  // held rather than inherited (BackgroundWorker): it runs only when mail is on, and its shutdown wait is bounded
  private readonly loop = new WorkerLoop({
    name: 'platform mail',
    pass: () => this.sendDue(),
    sweepMs: SWEEP_MS,
    minSleepMs: 100,
    retryPauseMs: 1_000,
    logger: this.logger,
  });

  constructor(
    private readonly config: GatewayConfig,
    private readonly store: OutgoingMailStore,
  ) {
    this.cipher = new CredentialCipher(config.ENCRYPTION_KEY);
    this.mailer = config.MAIL_SMTP_URL ? new SmtpMailer(config.MAIL_SMTP_URL, config.MAIL_FROM) : null;
  }

  /** Whether mail is sent at all (MAIL_SMTP_URL set). */
  get enabled(): boolean {
    return this.mailer !== null;
  }

  /** Queues a mail in the caller's transaction; false (nothing queued) when mail is off. Call `wake` after the commit. */
  async queue(tx: EntityManager, tenantId: string, mail: MailToSend): Promise<boolean> {
    if (!this.enabled) return false;
    const content = this.cipher.encrypt(JSON.stringify(mail.content));
    await this.store.queue(tx, tenantId, { kind: mail.kind, memberId: mail.memberId, recipient: mail.recipient, content, giveUpAt: mail.giveUpAt });
    return true;
  }

  /** A mail was queued and committed: send it now rather than at the next sweep. */
  wake(): void {
    this.loop.wake();
  }

  onApplicationBootstrap(): void {
    if (this.mailer) this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.race([this.loop.stop(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref())]);
    this.mailer?.close();
  }

  /** Sends what is due, one claim of it; says when to look again. */
  private async sendDue(): Promise<PassOutcome> {
    const claimed = await this.store.claim(CLAIM_LIMIT, MAIL_LEASE_MS);
    const settlements: MailSettlement[] = [];
    for (const mail of claimed) {
      if (this.loop.stopping) break; // the rest come due again when their lease ends
      settlements.push(await this.attempt(mail));
    }
    try {
      await this.store.settle(settlements);
    } catch (err) {
      // not retried as a failed pass: their leases bring these mails back
      this.logger.warn(`could not record ${settlements.length} mail outcomes; they are tried again after their lease: ${String(err)}`);
    }
    if (claimed.length === CLAIM_LIMIT) return 'more';
    return this.store.nextDueInMs();
  }

  private async attempt(mail: ClaimedMail): Promise<MailSettlement> {
    const { id, attempts } = mail;
    const where = `mail ${id} (${mail.kind}, tenant ${mail.tenantId})`;
    let content: MailContent;
    try {
      content = JSON.parse(this.cipher.decrypt(mail.content)) as MailContent;
    } catch (err) {
      this.logger.error(`dropped ${where}: its content cannot be decrypted with ENCRYPTION_KEY (${String(err)})`);
      return { id, attempts, outcome: 'dropped' };
    }
    try {
      await this.mailer!.send(mail.recipient, content);
      this.logger.log(`sent ${where} on attempt ${attempts}`);
      return { id, attempts, outcome: 'sent' };
    } catch (err) {
      const failure = err instanceof MailFailure ? err : new MailFailure(String(err), true);
      if (!failure.transient) {
        this.logger.warn(`dropped ${where}: ${failure.message} (a permanent refusal)`);
        return { id, attempts, outcome: 'dropped' };
      }
      if (Date.now() >= mail.giveUpAt.getTime()) {
        this.logger.warn(`gave up on ${where} after ${attempts} attempts, its link has expired: ${failure.message}`);
        return { id, attempts, outcome: 'dropped' };
      }
      const delayMs = mailRetryDelayMs(this.config.mailRetryDelaysMs, attempts);
      this.logger.warn(`${where}: ${failure.message}; retrying in ${delayMs} ms`);
      return { id, attempts, outcome: 'retry', delayMs, error: failure.message };
    }
  }
}
