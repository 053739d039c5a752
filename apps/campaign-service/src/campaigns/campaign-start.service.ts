import { Injectable, Logger } from '@nestjs/common';
import { ProblemTypes, amountText, derivedId, problem, type CampaignEstimate, type ChannelRecord, type FieldError, type TemplateContent } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { AudienceResolver } from '../audience/audience.resolver';
import { fillTemplate } from '../audience/template-variables';
import { CampaignServiceConfig } from '../config/campaign-service.config';
import { campaignPace } from '../sending/campaign-pace';
import type { CampaignRow } from './campaigns.mapper';
import { CampaignsStore, type FrozenRecipient } from './campaigns.store';

/** At most this many recipients are named in a refusal (the detail says how many there are). */
const LISTED = 100;

/** A recipient's message id: the same for the same campaign and contact, whichever instance or attempt produces it. */
export function recipientMessageId(tenantId: string, campaignId: string, contactId: string): string {
  return derivedId('msg', 'campaign', tenantId, campaignId, contactId);
}

/** A start the wallet cannot pay for (402); carries the estimate, which is recorded on the campaign after the rollback. */
export class InsufficientFundsRefusal extends ProblemException {
  constructor(readonly estimate: CampaignEstimate) {
    super(
      problem(
        402,
        ProblemTypes.insufficientFunds,
        'Payment Required',
        `The wallet’s balance does not cover this campaign’s estimated cost (${amountText(estimate.amount)} ${estimate.currency}); nothing was sent. Top up the wallet and start it again.`,
      ),
    );
  }
}

/**
 * Starting a campaign: its audience is resolved from crm-service now and frozen into `campaign_recipients` (a contact
 * added later is not messaged), each recipient with its template filled. Runs inside the caller's transaction, which
 * holds the campaign's row; the audience is read and written a page at a time under a savepoint, and a refusal (a
 * recipient would get an empty parameter, or a wallet that cannot pay for the billing-service estimate) rolls back to
 * it: the caller's transaction is left as it was, with nothing written.
 */
@Injectable()
export class CampaignStartService {
  private readonly logger = new Logger(CampaignStartService.name);

  constructor(
    private readonly campaigns: CampaignsStore,
    private readonly audience: AudienceResolver,
    private readonly rpc: RpcClient,
    private readonly config: CampaignServiceConfig,
  ) {}

  async freeze(tx: EntityManager, campaign: CampaignRow, requestId?: string): Promise<void> {
    // the recipients are written page by page as the audience is read: a refusal found later takes them back out
    await this.campaigns.beginFreeze(tx);
    try {
      await this.freezeAudience(tx, campaign, requestId);
    } catch (err) {
      await this.campaigns.undoFreeze(tx).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Reads the audience a page at a time (never the whole of it in memory: issue 19) and writes each page's recipients
   * before the next is read; the refusals, the template check and the estimate follow once every page is in.
   */
  private async freezeAudience(tx: EntityManager, campaign: CampaignRow, requestId?: string): Promise<void> {
    const refused: FieldError[] = [];
    let refusedCount = 0;
    let sendable: { phone: string; template: TemplateContent } | undefined;
    for await (const page of this.audience.pages(campaign.tenant_id, campaign.audience, requestId)) {
      // one recipient per number in a page (one statement cannot change a row twice): the lowest contact id's
      const byPhone = new Map<string, FrozenRecipient>();
      for (const contact of page) {
        if (!contact.phone) continue;
        const filled = fillTemplate(campaign.template, contact);
        if (!contact.opted_out && filled.empty.length > 0) {
          refusedCount++;
          if (refused.length < LISTED) {
            refused.push({ field: `recipients.${contact.id}`, message: filled.empty.map((e) => `${e.path} would be empty (${e.variable})`).join('; ') });
          }
          continue;
        }
        if (!contact.opted_out) sendable ??= { phone: contact.phone, template: filled.template };
        const kept = byPhone.get(contact.phone);
        if (kept && kept.contact_id < contact.id) continue;
        byPhone.set(contact.phone, {
          contact_id: contact.id,
          phone: contact.phone,
          message_id: recipientMessageId(campaign.tenant_id, campaign.id, contact.id),
          template: contact.opted_out ? null : filled.template,
          status: contact.opted_out ? 'skipped_opted_out' : 'pending',
        });
      }
      // once a start is refused nothing it wrote stays: the rest of the audience is only read for the refusal's count
      if (refusedCount === 0 && byPhone.size > 0) await this.campaigns.insertRecipients(campaign.tenant_id, campaign.id, [...byPhone.values()], tx);
    }
    if (refusedCount > 0) {
      throw new ProblemException(
        problem(409, ProblemTypes.conflict, 'Conflict', `${refusedCount} recipient(s) would get an empty template parameter; fill their contact fields or narrow the audience.`, refused),
      );
    }
    let pace = campaign.rate_per_second;
    if (this.config.CAMPAIGN_MESSAGING_CHECKS) {
      // messaging-service owns templates (approved, placeholders filled: 400 naming the problem otherwise) and numbers
      if (sendable) await this.rpc.request('templates.check-send', { tenant_id: campaign.tenant_id, to: sendable.phone, from: null, template: sendable.template }, { requestId });
      pace = campaignPace(pace, await this.channelOf(campaign, requestId));
    }
    const counts = await this.campaigns.audienceCounts(campaign.tenant_id, campaign.id, tx);
    const estimate = await this.estimate(campaign, counts.messaged, requestId);
    await this.campaigns.markRunning(campaign.tenant_id, campaign.id, counts, pace, estimate, tx);
  }

  /**
   * What billing-service says the campaign will cost; with BILLING_ENFORCED a wallet that cannot pay refuses the start.
   * Without enforcement a billing-service that does not answer leaves the estimate out rather than holding the start.
   */
  private async estimate(campaign: CampaignRow, quantity: number, requestId?: string): Promise<CampaignEstimate | null> {
    if (!this.config.CAMPAIGN_BILLING_ESTIMATE) return null;
    const request = { tenant_id: campaign.tenant_id, channel: 'whatsapp', template: { name: campaign.template.name, language: campaign.template.language }, quantity };
    try {
      const answer = await this.rpc.request('billing.estimate', request, { requestId });
      const estimate = { amount: answer.amount, currency: answer.currency };
      if (this.config.BILLING_ENFORCED && !answer.payable) throw new InsufficientFundsRefusal(estimate);
      return estimate;
    } catch (err) {
      if (err instanceof InsufficientFundsRefusal || this.config.BILLING_ENFORCED) throw err;
      this.logger.warn(`campaign ${campaign.id} starts without a cost estimate: ${String(err)}`);
      return null;
    }
  }

  /** The number the campaign goes out from: the channel it names, else the tenant's default WhatsApp number. */
  private async channelOf(campaign: CampaignRow, requestId?: string): Promise<ChannelRecord | null> {
    let cursor: string | null = null;
    do {
      const page: { data: ChannelRecord[]; next_cursor: string | null } = await this.rpc.request('channels.list', { tenant_id: campaign.tenant_id, limit: 100, cursor }, { requestId });
      const found = page.data.find((c) => (campaign.channel_id ? c.id === campaign.channel_id : c.is_default && (c.channel ?? 'whatsapp') === 'whatsapp'));
      if (found) return found;
      cursor = page.next_cursor;
    } while (cursor !== null);
    return null;
  }
}
