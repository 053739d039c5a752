import { Injectable, Logger } from '@nestjs/common';
import type { MessageError, OutboundContent, WhatsappProvider } from '@parley/contracts';
import { Counter } from 'prom-client';
import type { SendingChannel } from '../channels/channels.service';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { CustomerWindowService, WINDOW_CLOSED } from '../messages/customer-window.service';
import { ProviderMediaService } from '../media/provider-media.service';
import { OptOutsStore } from '../opt-outs/opt-outs.store';
import { EmailThreads } from '../email/email-threads';
import { MessageStatusService } from '../messages/message-status.service';
import { PAIR_RATE_LIMIT_CODE } from '../providers/cloud-api.errors';
import { ProviderRegistry } from '../providers/provider-registry';
import { ProviderError } from '../providers/whatsapp-provider';
import { CachedChannels } from './cached-channels';
import { SendAcceptance } from './send-acceptance.service';
import { SendQueueStore, type QueuedSend, type SendableMessage } from './send-queue.store';
import { SendRateLimiter } from './send-rate-limiter';
import { StatusReportsRead } from './status-reports-read';

/** Provider calls one message may take before a retryable error becomes its failure. */
export const MAX_PROVIDER_ATTEMPTS = 8;
/** Back-off of retryable provider errors: 500 ms doubling, at most a minute, with full jitter above half. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 60_000;

/**
 * How soon a repeat held back for unread provider reports looks again: seconds against a wait of a minute, and each
 * look costs its row a claim and an update (one loaded e2e run had 123 timed-out sends: rechecked every second, ~120
 * updates a second more on a machine already saturated).
 */
const REPORTS_RECHECK_MS = 5_000;

/** A reserved slot this close is waited for in-process; a later one parks the row until this long before it. */
export const SLOT_LEAD_MS = 250;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A delivery whose provider call (if any) is over. `settled` resolves once its outcome is recorded and announced;
 * until then the row stays claimed, so a crash meanwhile leaves the attempt to the unknown-outcome rules.
 */
export interface Dispatched {
  settled: Promise<void>;
}
const SETTLED: Dispatched = { settled: Promise.resolve() };

const NO_CHANNEL: MessageError = { code: 'no_channel', title: 'The tenant has no connected WhatsApp number' };
const SENDER_NOT_CONNECTED: MessageError = { code: 'no_channel', title: 'The sending WhatsApp number is not connected' };
const OPTED_OUT: MessageError = { code: 'opted_out', title: 'The recipient replied STOP to this SMS number; nothing is sent to them until they reply START' };
const NEVER_CONFIRMED: MessageError = { code: 'timeout', title: 'The WhatsApp provider did not answer in time' };

const providerCalls = new Counter({
  name: 'messaging_provider_sends_total',
  help: 'WhatsApp provider send calls by provider and outcome',
  labelNames: ['provider', 'outcome'],
});
const repeatedSends = new Counter({
  name: 'messaging_repeated_sends_total',
  help: 'Provider sends repeated because an earlier attempt for the same message failed or had an unknown outcome',
});
const repeatsHeldForReports = new Counter({
  name: 'messaging_repeats_held_for_reports_total',
  help: 'Repeats of sends with an unknown outcome put off because provider reports that arrived within the wait were not all read yet',
});

/**
 * Hands one queued message to its provider, at its number's pace: resolves the channel, refuses free-form text
 * outside the customer-service window, takes a send slot (or reschedules to the slot it reserved), sends, and
 * records the outcome. A retryable provider error reschedules the row with back-off; nothing here blocks a consumer.
 *
 * Sends are idempotent towards the provider as far as the Cloud API allows (it has no idempotency key): each carries
 * the message id as `biz_opaque_callback_data`, and an attempt stays on record until its outcome is known. An attempt
 * that timed out (or whose worker died) is not repeated until WHATSAPP_UNCONFIRMED_SEND_WAIT_MS passed without a
 * status naming the message, and every report that arrived within it was read (StatusReportsRead); such a status
 * records the message as sent instead (SendAcceptance).
 */
@Injectable()
export class SendDispatcher {
  private readonly logger = new Logger(SendDispatcher.name);
  /**
   * An unknown outcome's wait counts from no earlier than this instance's start: a status naming the message may
   * have reached Kafka while no instance was reading, and the restarted consumers need the whole wait to read it.
   */
  private readonly startedAt = Date.now();

  constructor(
    private readonly channels: CachedChannels,
    private readonly providers: ProviderRegistry,
    private readonly statuses: MessageStatusService,
    private readonly windows: CustomerWindowService,
    private readonly queue: SendQueueStore,
    private readonly limiter: SendRateLimiter,
    private readonly acceptance: SendAcceptance,
    private readonly config: MessagingServiceConfig,
    private readonly providerMedia: ProviderMediaService,
    private readonly optOuts: OptOutsStore,
    private readonly emailThreads: EmailThreads,
    private readonly reports: StatusReportsRead,
  ) {}

  async deliver(item: QueuedSend): Promise<Dispatched> {
    const { tenantId, messageId, message } = item;
    if (!message || message.providerMessageId !== null || message.status === 'failed') {
      await this.queue.remove(tenantId, messageId); // done already (or gone)
      return SETTLED;
    }
    if (item.attemptStartedAt && !(await this.earlierAttemptSettled(item, message))) return SETTLED;
    const channel = await this.channels.findForSend(tenantId, { channelId: item.channelId, from: message.from, kind: message.channel });
    if (!channel) {
      await this.fail(item, item.channelId || message.from ? SENDER_NOT_CONNECTED : NO_CHANNEL);
      return SETTLED;
    }
    if (channel.sender.kind === 'sms' && (await this.optOuts.isOptedOutOn(tenantId, 'sms', message.to))) {
      // Carrier rules: after STOP, nothing at all goes to that number from our SMS numbers until START.
      await this.fail(item, OPTED_OUT);
      return SETTLED;
    }
    if (message.type !== 'template' && channel.sender.kind === 'whatsapp' && !(await this.windows.allowsFreeForm(channel.sender.provider as WhatsappProvider, channel.id, message.to))) {
      // WhatsApp would refuse it (131047, maybe only asynchronously): fail it clearly without a provider call.
      await this.fail(item, WINDOW_CLOSED);
      return SETTLED;
    }
    const pairPausedMs = await this.limiter.pairPausedFor(channel.id, message.to);
    if (pairPausedMs > 0) {
      // This customer got too many messages too fast (131056): wait without a slot while others go on.
      await this.queue.reschedule(item, pairPausedMs);
      return SETTLED;
    }
    const limit = this.limitOf(channel);
    let slotAt = item.slotAt;
    if (limit !== null && (!slotAt || Date.now() - slotAt.getTime() > 1000 / limit)) {
      // No slot yet (first pass: a burst parks almost every row here), or the slot was missed by more than its width
      // (a busy worker): late sends take a fresh slot rather than bunch up over the limit.
      const slotInMs = await this.limiter.reserve(channel.id, limit);
      if (slotInMs > SLOT_LEAD_MS) {
        // A slot further out: the row waits in the queue (durably, holding no worker) until just before it.
        await this.queue.parkUntilSlot(item, slotInMs, SLOT_LEAD_MS);
        return SETTLED;
      }
      slotAt = new Date(Date.now() + slotInMs);
    }
    // Our claim may have lapsed while this row waited its turn (another worker then holds it): never send it twice.
    // One statement renews the claim and counts the provider call about to be made (pinning the channel).
    const attempt = await this.queue.beginAttempt({ item, channelId: channel.id, phoneNumber: channel.phoneNumber });
    if (attempt === 'lost') return SETTLED;
    if (attempt === 'done') {
      await this.queue.remove(tenantId, messageId); // accepted or failed concurrently
      return SETTLED;
    }
    // Within the lead: wait in-process (the claim covers a crash meanwhile) so the call leaves on its slot, with all
    // the bookkeeping done before it.
    let slotInMs = slotAt ? slotAt.getTime() - Date.now() : 0;
    // The bookkeeping can outlast the slot on a busy machine (a stall wakes several rows at once): a send late by more
    // than a slot's width takes the next free slot, waited for here under the renewed claim, rather than leave
    // together with the others it was late with.
    if (limit !== null && slotInMs < -1000 / limit) slotInMs = await this.limiter.reserve(channel.id, limit);
    if (slotInMs > 0) await sleep(slotInMs);
    return this.send(item, message, channel, attempt);
  }

  /**
   * An earlier attempt's outcome is unknown. True when it is time to send again (no status named the message within
   * the wait); otherwise the row waits for the rest of it (or fails, out of attempts) and false is answered.
   */
  private async earlierAttemptSettled(item: QueuedSend, message: SendableMessage): Promise<boolean> {
    const waitEnds = Math.max(item.attemptStartedAt!.getTime(), this.startedAt) + this.config.WHATSAPP_UNCONFIRMED_SEND_WAIT_MS;
    const waitMs = waitEnds - Date.now();
    if (waitMs > 0) {
      await this.queue.awaitOutcome(item, waitMs);
      return false;
    }
    // A status that came within the wait names the message even if it is still waiting in Kafka (this service behind,
    // on a busy machine or after an outage): "none came" is known only once everything that came then is read.
    if (!(await this.reports.allBefore(new Date(waitEnds)))) {
      repeatsHeldForReports.inc();
      await this.queue.awaitOutcome(item, REPORTS_RECHECK_MS);
      return false;
    }
    if (message.sendAttempts >= MAX_PROVIDER_ATTEMPTS) {
      await this.fail(item, NEVER_CONFIRMED);
      return false;
    }
    this.logger.warn(`no status named ${message.id} within ${this.config.WHATSAPP_UNCONFIRMED_SEND_WAIT_MS} ms of its unanswered attempt: sending it again`);
    return true;
  }

  /** The channel's own limit, else the provider default; sandbox numbers have none unless set (CONTRACT.md §8). */
  private limitOf(channel: SendingChannel): number | null {
    if (channel.sendLimitPerSecond !== null) return channel.sendLimitPerSecond;
    return channel.sender.provider === 'sandbox' || channel.sender.kind !== 'whatsapp' ? null : this.config.WHATSAPP_SEND_LIMIT_PER_SECOND;
  }

  /**
   * Makes provider call number `attempt` (recorded already). An acceptance is recorded and announced in the answer's
   * `settled`, so the caller may start its next provider call meanwhile; other outcomes are recorded before answering.
   */
  private async send(item: QueuedSend, message: SendableMessage, channel: SendingChannel, attempt: number): Promise<Dispatched> {
    const messageId = message.id;
    if (attempt > 1) {
      repeatedSends.inc();
      this.logger.warn(`sending ${messageId} again (attempt ${attempt}): the earlier attempt failed or its outcome is unknown`);
    }
    const provider = channel.sender.provider;
    try {
      const content = await this.providerMedia.prepare(item.tenantId, channel, contentOf(message));
      const thread = channel.sender.kind === 'email' ? await this.emailThreads.of(item.tenantId, channel.id, message.to, messageId) : null;
      const result = await this.providers.adapterFor(channel.sender.kind, provider).send(channel.sender, message.to, content, messageId, thread);
      providerCalls.inc({ provider, outcome: 'accepted' });
      return { settled: this.recordAccepted(item, channel.id, result.providerMessageId) };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      providerCalls.inc({ provider, outcome: err.outcomeUnknown ? 'unknown' : err.retriable ? 'retriable_error' : 'error' });
      if (err.outcomeUnknown) {
        const waitMs = this.config.WHATSAPP_UNCONFIRMED_SEND_WAIT_MS;
        this.logger.warn(`send of ${messageId} has an unknown outcome (attempt ${attempt}): waiting up to ${waitMs} ms for a status naming it: ${err.message}`);
        await this.queue.awaitOutcome(item, waitMs);
        return SETTLED;
      }
      if (err.code === PAIR_RATE_LIMIT_CODE && attempt < MAX_PROVIDER_ATTEMPTS) {
        const pauseMs = await this.limiter.pausePair(channel.id, message.to, this.config.WHATSAPP_PAIR_BACKOFF_MS);
        this.logger.warn(`send of ${messageId} hit the pair rate limit: pausing this customer for ${pauseMs} ms`);
        await this.queue.reschedule(item, pauseMs);
        return SETTLED;
      }
      if (err.retriable && attempt < MAX_PROVIDER_ATTEMPTS) {
        const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
        this.logger.warn(`send of ${messageId} failed (attempt ${attempt}/${MAX_PROVIDER_ATTEMPTS}), retrying in about ${delay} ms: ${err.message}`);
        await this.queue.reschedule(item, delay / 2 + Math.random() * (delay / 2));
        return SETTLED;
      }
      this.logger.warn(`send of ${messageId} failed for good: ${err.message}`);
      await this.fail(item, { code: err.code, title: err.title });
      return SETTLED;
    }
  }

  /** The provider took the message: recording that must outlast a database hiccup, or the message is sent again. */
  private async recordAccepted(item: QueuedSend, channelId: string, providerMessageId: string): Promise<void> {
    const { tenantId, messageId } = item;
    const recorded = await persistently(() => this.acceptance.record(tenantId, messageId, channelId, providerMessageId, item.requestId ?? undefined));
    if (!recorded) await this.queue.remove(tenantId, messageId); // a status recorded it first
  }

  private async fail(item: QueuedSend, error: MessageError): Promise<void> {
    await this.statuses.apply(item.tenantId, item.messageId, { status: 'failed', at: new Date().toISOString(), error }, item.requestId ?? undefined);
    await this.queue.remove(item.tenantId, item.messageId);
  }
}

/** Runs `work`, trying twice more (after 250 ms, then 1 s) when it throws. */
async function persistently<T>(work: () => Promise<T>): Promise<T> {
  for (const pauseMs of [250, 1_000]) {
    try {
      return await work();
    } catch {
      await sleep(pauseMs);
    }
  }
  return work();
}

/** The provider content of a recorded outbound message. */
function contentOf(message: SendableMessage): OutboundContent {
  if (message.type === 'template' && message.template) return { type: 'template', template: message.template };
  if (message.content) return message.content;
  if (message.channel === 'email') return { type: 'text', text: message.body, subject: message.subject ?? '', html: message.html };
  return { type: 'text', text: message.body };
}
