import { Injectable, Logger } from '@nestjs/common';
import { Topics, conversationKey, derivedId, type CampaignCompletedData, type MessageOutboundData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { BackgroundWorker, ProblemException, WorkerLoop } from '@parley/service-kit';
import { CampaignStartService, InsufficientFundsRefusal } from '../campaigns/campaign-start.service';
import { toCampaignRecord } from '../campaigns/campaigns.mapper';
import { CampaignServiceConfig } from '../config/campaign-service.config';
import { CampaignSendingStore } from './campaign-sending.store';

/** A running campaign hands over a batch every TICK_MS: `rate_per_second × TICK_MS / 1000` recipients (at least one). */
const TICK_MS = 200;
/** The broker must take a batch within this time, or the batch is rolled back and handed over again later. */
const PUBLISH_TIMEOUT_MS = 10_000;
/** How soon a pass that failed (the database or the broker away) is tried again. */
const RETRY_PAUSE_MS = 1_000;
/** Completed campaigns announced per pass. */
const COMPLETIONS_PER_PASS = 20;

/**
 * The durable sender loop, one per instance (any number of instances): it starts campaigns whose schedule is due and
 * hands running campaigns' recipients to `message.outbound` at each campaign's pace. A batch is claimed with the
 * campaign's row lock and its recipients' (SKIP LOCKED: two instances never take the same), produced, then marked
 * `queued` in the same transaction. A crash between produce and commit leaves them `pending`: they are produced again
 * with the same message ids, which messaging-service's insert-if-new drops, so each recipient is sent exactly once.
 *
 * Pacing: the campaign's rate stays below the number's limit (default 20/s against the Cloud API's 80/s); messaging-
 * service spaces all of a number's sends over that limit, so the unused share of each second is left to agent replies.
 */
@Injectable()
export class CampaignSenderWorker extends BackgroundWorker {
  private readonly logger = new Logger(CampaignSenderWorker.name);
  // woken when a campaign is started, resumed or scheduled
  protected readonly loop: WorkerLoop;

  constructor(
    private readonly store: CampaignSendingStore,
    private readonly publisher: EventPublisher,
    private readonly starter: CampaignStartService,
    config: CampaignServiceConfig,
  ) {
    super();
    this.loop = new WorkerLoop({
      name: 'campaign sender',
      pass: () => this.pass(),
      sweepMs: config.CAMPAIGN_SWEEP_MS,
      // low: the campaigns' due times pace the batches (one per TICK_MS or so each)
      minSleepMs: 5,
      // a failed start or batch is tried again soon, whatever the sweep
      retryPauseMs: Math.min(config.CAMPAIGN_SWEEP_MS, RETRY_PAUSE_MS),
      logger: this.logger,
    });
  }

  /** Starts a due schedule, hands over one batch and announces completions; answers how long until the next campaign is due. */
  private async pass(): Promise<number | null> {
    await this.startDueSchedules();
    const dueInMs = await this.sendBatch();
    // a failed announcement is retried next pass, without holding the running campaigns' pace back
    await this.announceCompleted().catch((err: unknown) => this.logger.warn(`could not announce completed campaigns (retried): ${String(err)}`));
    return dueInMs;
  }

  /** Starts one due scheduled campaign per pass; a refused start returns it to `draft` with the reason. */
  private async startDueSchedules(): Promise<void> {
    await this.store.transaction(async (tx) => {
      const campaign = await this.store.claimDueScheduled(tx);
      if (!campaign) return;
      try {
        await this.starter.freeze(tx, campaign);
      } catch (err) {
        if (!(err instanceof ProblemException)) throw err;
        // refused before anything was written: the transaction is intact
        const estimate = err instanceof InsufficientFundsRefusal ? JSON.stringify(err.estimate) : null;
        await this.store.returnToDraft(campaign.id, `scheduled start refused: ${err.problem.detail}`, estimate, tx);
      }
    });
  }

  /** One batch of one due running campaign; answers how long until the next campaign is due (null: none). */
  private async sendBatch(): Promise<number | null> {
    await this.store.transaction(async (tx) => {
      const campaign = await this.store.claimDueRunning(tx);
      if (!campaign) return;
      const size = Math.max(1, Math.ceil((campaign.rate_per_second * TICK_MS) / 1000));
      const batch = await this.store.pendingBatch(campaign.id, size, tx);
      if (batch.length === 0) {
        await this.store.markCompleted(campaign.id, tx);
        return;
      }
      const acceptedAt = new Date().toISOString();
      await this.publisher.publish(
        batch.map((r) => {
          const data: MessageOutboundData = {
            message_id: r.message_id,
            channel: 'whatsapp',
            from: null,
            channel_id: campaign.channel_id,
            to: r.phone,
            content: { type: 'template', template: r.template },
            origin: 'api',
            campaign_id: campaign.id,
            accepted_at: acceptedAt,
          };
          const envelope = EventPublisher.envelope(Topics.MessageOutbound, campaign.tenant_id, data, derivedId('evt', 'campaign-send', r.message_id));
          return { topic: Topics.MessageOutbound, key: conversationKey(campaign.tenant_id, r.phone), value: envelope, headers: { 'event-type': Topics.MessageOutbound } };
        }),
        { timeoutMs: PUBLISH_TIMEOUT_MS },
      );
      await this.store.markQueued(
        campaign.id,
        batch.map((r) => r.contact_id),
        Math.ceil((batch.length * 1000) / campaign.rate_per_second),
        tx,
      );
    });
    return this.store.nextDueInMs();
  }

  /** `campaign.completed` for each completed campaign not yet announced (after a crash too): published, then marked. */
  private async announceCompleted(): Promise<void> {
    const rows = await this.store.unannouncedCompletions(COMPLETIONS_PER_PASS);
    for (const row of rows) {
      const campaign = toCampaignRecord(row);
      const data: CampaignCompletedData = { event: 'campaign.completed', tenant_id: row.tenant_id, campaign, at: campaign.completed_at! };
      // the id derives from the campaign: a second announcement (crash before the mark) is the same event
      await this.publisher.publishEvent(EventPublisher.envelope(Topics.CampaignCompleted, row.tenant_id, data, derivedId('evt', 'campaign.completed', row.id)), `${row.tenant_id}:${row.id}`);
      await this.store.markCompletionAnnounced(row.id);
    }
  }
}
