import { Injectable, Logger } from '@nestjs/common';
import { ProblemTypes, derivedId, problem, type CampaignEstimate, type ChannelRecord, type ContactRecord, type FieldError } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { AudienceResolver } from '../audience/audience.resolver';
import { fillTemplate } from '../audience/template-variables';
import { CampaignServiceConfig } from '../config/campaign-service.config';
import { campaignPace } from '../sending/campaign-pace';
import type { CampaignRow } from './campaigns.mapper';

/** At most this many recipients are named in a refusal (the detail says how many there are). */
const LISTED = 100;
/** Recipients written per INSERT when an audience is frozen. */
const INSERT_SLICE = 5_000;

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
        `The wallet’s balance does not cover this campaign’s estimated cost (${estimate.amount} ${estimate.currency}); nothing was sent. Top up the wallet and start it again.`,
      ),
    );
  }
}

/**
 * Starting a campaign: its audience is resolved from crm-service now and frozen into `campaign_recipients` (a contact
 * added later is not messaged), each recipient with its template filled. Runs inside the caller's transaction, which
 * holds the campaign's row: a refusal (a recipient would get an empty parameter, or a wallet that cannot pay for the
 * billing-service estimate) comes before anything is written.
 */
@Injectable()
export class CampaignStartService {
  private readonly logger = new Logger(CampaignStartService.name);

  constructor(
    private readonly audience: AudienceResolver,
    private readonly rpc: RpcClient,
    private readonly config: CampaignServiceConfig,
  ) {}

  async freeze(tx: EntityManager, campaign: CampaignRow, requestId?: string): Promise<void> {
    const contacts = (await this.audience.resolve(campaign.tenant_id, campaign.audience, requestId)).filter((c): c is ContactRecord & { phone: string } => !!c.phone);
    const rows = contacts.map((contact) => {
      const filled = fillTemplate(campaign.template, contact);
      return { contact, filled };
    });
    const refused = rows.filter((r) => !r.contact.opted_out && r.filled.empty.length > 0);
    if (refused.length > 0) {
      const errors: FieldError[] = refused.slice(0, LISTED).map(({ contact, filled }) => ({
        field: `recipients.${contact.id}`,
        message: filled.empty.map((e) => `${e.path} would be empty (${e.variable})`).join('; '),
      }));
      throw new ProblemException(
        problem(409, ProblemTypes.conflict, 'Conflict', `${refused.length} recipient(s) would get an empty template parameter; fill their contact fields or narrow the audience.`, errors),
      );
    }
    const sendable = rows.find((r) => !r.contact.opted_out);
    let pace = campaign.rate_per_second;
    if (this.config.CAMPAIGN_MESSAGING_CHECKS) {
      // messaging-service owns templates (approved, placeholders filled: 400 naming the problem otherwise) and numbers
      if (sendable) await this.rpc.request('templates.check-send', { tenant_id: campaign.tenant_id, to: sendable.contact.phone, from: null, template: sendable.filled.template }, { requestId });
      pace = campaignPace(pace, await this.channelOf(campaign, requestId));
    }
    const estimate = await this.estimate(campaign, messagedCount(rows.map((r) => r.contact)), requestId);
    // Inserted in slices (a 100,000-contact audience is not one JSON parameter in memory), in contact id order across
    // them: a number shared by two contacts gets one message, the first contact's.
    const counts = { audience: 0, skipped: 0 };
    const ordered = [...rows].sort((x, y) => (x.contact.id < y.contact.id ? -1 : x.contact.id > y.contact.id ? 1 : 0));
    for (let at = 0; at < ordered.length; at += INSERT_SLICE) {
      const input = ordered.slice(at, at + INSERT_SLICE).map(({ contact, filled }) => ({
        contact_id: contact.id,
        phone: contact.phone,
        message_id: recipientMessageId(campaign.tenant_id, campaign.id, contact.id),
        template: contact.opted_out ? null : filled.template,
        status: contact.opted_out ? 'skipped_opted_out' : 'pending',
      }));
      const [slice] = (await tx.query(
        `WITH x AS (SELECT * FROM jsonb_to_recordset($3::jsonb) AS x(contact_id text, phone text, message_id text, template jsonb, status text)),
         inserted AS (
           INSERT INTO campaign_recipients (campaign_id, tenant_id, contact_id, phone, message_id, template, status)
           SELECT $1, $2, contact_id, phone, message_id, template, status FROM x ORDER BY contact_id
           ON CONFLICT DO NOTHING RETURNING status)
         SELECT count(*)::int AS audience, count(*) FILTER (WHERE status = 'skipped_opted_out')::int AS skipped FROM inserted`,
        [campaign.id, campaign.tenant_id, JSON.stringify(input)],
      )) as { audience: number; skipped: number }[];
      counts.audience += slice.audience;
      counts.skipped += slice.skipped;
    }
    await tx.query(
      `UPDATE campaigns SET status = 'running', status_reason = NULL, audience_count = $2, skipped_opted_out = $3, rate_per_second = $4, estimate = $5::jsonb,
         started_at = now(), next_send_at = now(), updated_at = now()
       WHERE id = $1`,
      [campaign.id, counts.audience, counts.skipped, pace, estimate ? JSON.stringify(estimate) : null],
    );
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

/** How many messages the frozen list will send: one per number (the first contact by id keeps it), none to the opted out. */
function messagedCount(contacts: (ContactRecord & { phone: string })[]): number {
  const seen = new Set<string>();
  let count = 0;
  for (const contact of [...contacts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (seen.has(contact.phone)) continue;
    seen.add(contact.phone);
    if (!contact.opted_out) count++;
  }
  return count;
}
