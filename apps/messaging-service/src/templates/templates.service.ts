import { Injectable, Logger } from '@nestjs/common';
import {
  ProblemTypes,
  Topics,
  newId,
  notFoundProblem,
  problem,
  validationProblem,
  type CreateTemplateRequest,
  type Page,
  type TemplateContent,
  type TemplateRecord,
  type TemplateStatus,
  type TemplateStatusData,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ListCursors, ProblemException } from '@parley/service-kit';
import type { ChannelEntity } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { pageLimit } from '../common/paging';
import { OptOutsStore } from '../opt-outs/opt-outs.store';
import { GraphTemplatesClient } from './graph-templates.client';
import { sendParameterProblems, templateProblems } from './template-rules';
import { TemplatesStore, type TemplateRow } from './templates.store';

/** A `message_template_status_update` notification's value, for the WABA it came from. */
export interface TemplateStatusUpdate {
  wabaId: string;
  providerTemplateId: string | null;
  name: string | null;
  language: string | null;
  event: string;
  reason: string | null;
}

/**
 * Meta gives every WhatsApp Business Account the pre-approved sample `hello_world` (en_US, utility, no variables):
 * sendable on any channel that has no template of that name of its own.
 */
const META_SAMPLE: Pick<TemplateRow, 'name' | 'language' | 'category' | 'components' | 'status'> = {
  name: 'hello_world',
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Welcome and congratulations!! This message demonstrates your ability to send a WhatsApp message notification from the Cloud API.' }],
  status: 'APPROVED',
};

const FINAL_STATUSES: Record<string, TemplateStatus> = { APPROVED: 'APPROVED', REJECTED: 'REJECTED' };
const PUBLISH_TIMEOUT_MS = 5000;

/**
 * Message templates per channel (CONTRACT.md §13): submitted to the channel's provider for review, moved to APPROVED or
 * REJECTED by its `message_template_status_update` notifications (announced as `template.status`), and checked before
 * a `template` send is queued, together with the customer's marketing opt-out (§12).
 */
@Injectable()
export class TemplatesService {
  private readonly logger = new Logger(TemplatesService.name);

  constructor(
    private readonly templates: TemplatesStore,
    private readonly channels: ChannelsService,
    private readonly graph: GraphTemplatesClient,
    private readonly optOuts: OptOutsStore,
    private readonly publisher: EventPublisher,
    private readonly cursors: ListCursors,
  ) {}

  async create(tenantId: string, body: CreateTemplateRequest): Promise<TemplateRecord> {
    const errors = templateProblems(body);
    if (errors.length > 0) throw new ProblemException(validationProblem(errors));
    const found = await this.channels.findWithToken(tenantId, { channelId: body.channel_id ?? null });
    if (!found) {
      if (body.channel_id) throw new ProblemException(validationProblem([{ field: 'channel_id', message: 'channel_id is not one of your connected channels' }]));
      throw new ProblemException(validationProblem([{ field: 'channel_id', message: 'you have no default channel: connect a WhatsApp number first' }]));
    }
    const { channel, accessToken } = found;
    const wabaId = templateAccountOf(channel);
    if (channel.provider === '360dialog' || !wabaId) {
      throw new ProblemException(validationProblem([{ field: 'channel_id', message: 'templates can be created on meta channels with a waba_id and on sandbox channels' }]));
    }
    const id = newId('tpl');
    // Stored first (PENDING, no provider id yet): the unique (channel, name, language) refuses a duplicate before the
    // provider sees it, and a status notification that overtakes the answer still finds the row by name.
    const inserted = await this.templates.insertPending(tenantId, { id, channel_id: channel.id, name: body.name, language: body.language, category: body.category, components: body.components });
    if (!inserted) {
      throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `The channel already has a template "${body.name}" in ${body.language}.`));
    }
    try {
      const submitted = await this.graph.create(
        { provider: channel.provider, wabaId, accessToken },
        { name: body.name, language: body.language, category: body.category, components: body.components },
      );
      await this.templates.setProviderTemplateId(tenantId, id, submitted.id);
    } catch (err) {
      await this.templates.delete(tenantId, id);
      throw err;
    }
    return this.get(tenantId, id);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<TemplateRecord>> {
    const take = pageLimit(limit);
    const cursors = this.cursors.of(tenantId, 'templates');
    const after = cursors.after(cursor);
    const rows = await this.templates.list(tenantId, take + 1, after);
    return { data: rows.slice(0, take).map(toRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  async get(tenantId: string, templateId: string): Promise<TemplateRecord> {
    const row = await this.templates.find(tenantId, templateId);
    if (!row) throw new ProblemException(notFoundProblem(`Template "${templateId}"`));
    return toRecord(row);
  }

  /** Deletes it at the provider (best effort: a template gone there already is fine) and here. */
  async remove(tenantId: string, templateId: string): Promise<void> {
    const row = await this.templates.find(tenantId, templateId);
    if (!row) throw new ProblemException(notFoundProblem(`Template "${templateId}"`));
    const found = await this.channels.findWithToken(tenantId, { channelId: row.channel_id });
    const wabaId = found ? templateAccountOf(found.channel) : null;
    if (found && wabaId && row.provider_template_id) {
      await this.graph.delete({ provider: found.channel.provider, wabaId, accessToken: found.accessToken }, row.provider_template_id, row.name).catch((err: unknown) => {
        if (err instanceof ProblemException && err.problem.status === 400) return; // already gone there
        throw err;
      });
    }
    await this.templates.delete(tenantId, templateId);
  }

  /**
   * Applies provider review results: the template (found by provider id, else by name and language on the WABA's
   * channels) moves to APPROVED or REJECTED, and `template.status` goes out. A repeated notification changes nothing
   * and announces nothing; other events (PAUSED, FLAGGED, …) are logged and left.
   */
  async applyStatusUpdates(updates: readonly TemplateStatusUpdate[], requestId?: string): Promise<void> {
    for (const update of updates) {
      const status = FINAL_STATUSES[update.event];
      if (!status) {
        this.logger.log(`template ${update.name ?? update.providerTemplateId} on WABA ${update.wabaId}: ${update.event} (not tracked)`);
        continue;
      }
      const reason = status === 'REJECTED' ? (update.reason && update.reason !== 'NONE' ? update.reason : 'REJECTED') : null;
      const rows = await this.templates.applyReview({ wabaId: update.wabaId, providerTemplateId: update.providerTemplateId, name: update.name, language: update.language, status, reason });
      for (const row of rows) {
        const data: TemplateStatusData = { event: 'template.status', tenant_id: row.tenant_id, channel: 'whatsapp', template: toRecord(row), at: new Date(row.updated_at).toISOString() };
        await this.publisher.publishEvent(EventPublisher.envelope(Topics.TemplateStatus, row.tenant_id, data), `${row.tenant_id}:${row.id}`, requestId, { timeoutMs: PUBLISH_TIMEOUT_MS });
      }
    }
  }

  /**
   * May this template send be queued? The template must be APPROVED on the sending channel in that language with its
   * placeholders filled (else 400 naming the field), and a MARKETING one not go to a customer who opted out (409).
   */
  async checkSend(tenantId: string, to: string, from: string | null, template: TemplateContent): Promise<{ ok: true }> {
    const found = await this.channels.findWithToken(tenantId, { from });
    if (!found) throw new ProblemException(validationProblem([{ field: from ? 'from' : 'channel', message: from ? 'from is not one of your connected numbers' : 'you have no connected WhatsApp number to send from' }]));
    const rows = await this.templates.named(found.channel.id, template.name);
    const candidates: Pick<TemplateRow, 'name' | 'language' | 'category' | 'components' | 'status'>[] = rows.length > 0 ? rows : template.name === META_SAMPLE.name ? [META_SAMPLE] : [];
    if (candidates.length === 0) throw invalidTemplate('template.name', `template.name "${template.name}" is not a template of the sending channel (create it with POST /api/v1/templates)`);
    const chosen = candidates.find((t) => t.language === template.language.code);
    if (!chosen) {
      throw invalidTemplate('template.language.code', `template "${template.name}" has no ${template.language.code} version (it has: ${candidates.map((t) => t.language).join(', ')})`);
    }
    if (chosen.status !== 'APPROVED') throw invalidTemplate('template.name', `template "${template.name}" (${chosen.language}) is ${chosen.status}, not APPROVED: it cannot be sent yet`);
    const problems = sendParameterProblems(chosen.components, template.components);
    if (problems.length > 0) throw new ProblemException(validationProblem(problems));
    if (chosen.category === 'MARKETING' && (await this.optOuts.isOptedOut(tenantId, to))) {
      throw new ProblemException(
        problem(409, ProblemTypes.optedOut, 'Opted out', `${to} opted out of your marketing messages (they wrote STOP); marketing templates are not sent to them until they write START.`),
      );
    }
    return { ok: true };
  }
}

/**
 * The WhatsApp Business Account a channel's templates live in. A sandbox number provisioned for an account has none of
 * its own on record: its phone number id stands in (the sandbox keeps templates under any WABA id it is given).
 */
function templateAccountOf(channel: ChannelEntity): string | null {
  return channel.wabaId ?? (channel.provider === 'sandbox' ? channel.phoneNumberId : null);
}

function invalidTemplate(field: string, message: string): ProblemException {
  return new ProblemException(validationProblem([{ field, message }], 'The template cannot be sent.'));
}

function toRecord(row: TemplateRow): TemplateRecord {
  return {
    id: row.id,
    channel_id: row.channel_id,
    name: row.name,
    language: row.language,
    category: row.category,
    components: row.components,
    status: row.status,
    reason: row.reason,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
