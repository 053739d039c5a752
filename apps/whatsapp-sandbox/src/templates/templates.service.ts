import { Injectable } from '@nestjs/common';
import { GraphErrors } from '../cloud-api/graph-error';
import { newGraphId } from '../cloud-api/ids';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { NotificationDispatcher } from '../notifications/notification-dispatcher.service';
import { NotificationOutbox } from '../notifications/notification-outbox.store';
import { reviewOutcome, templateStatusNotification } from './template-review';
import { TemplatesStore, type TemplateRow } from './templates.store';

/** Graph's view of a template: PENDING until its review time, then its outcome. */
function graphView(row: TemplateRow, now = Date.now()) {
  const reviewed = row.reviewed_at.getTime() <= now;
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    components: row.components,
    status: reviewed ? row.outcome : 'PENDING',
    ...(reviewed && row.reason ? { rejected_reason: row.reason } : {}),
  };
}

/**
 * Meta's template routes of a WhatsApp Business Account. A submitted template is reviewed after
 * SANDBOX_TEMPLATE_REVIEW_MS: its `message_template_status_update` notification is recorded in the notification outbox
 * with the template, due at that time, so it reaches the app signed and retried like every other notification. Every
 * WABA id is accepted, as for subscribed_apps: the sandbox keeps no WABA records of its own.
 */
@Injectable()
export class SandboxTemplatesService {
  constructor(
    private readonly templates: TemplatesStore,
    private readonly config: WhatsappSandboxConfig,
    private readonly outbox: NotificationOutbox,
    private readonly dispatcher: NotificationDispatcher,
  ) {}

  async create(wabaId: string, body: unknown): Promise<{ id: string; status: string; category: string }> {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    for (const field of ['name', 'language', 'category'] as const) {
      if (typeof b[field] !== 'string' || b[field] === '') throw GraphErrors.invalidParameter(`The parameter ${field} is required.`);
    }
    if (!Array.isArray(b.components) || b.components.length === 0) throw GraphErrors.invalidParameter('The parameter components is required.');
    const name = b.name as string;
    const review = reviewOutcome(name);
    const reviewedAt = new Date(Date.now() + this.config.SANDBOX_TEMPLATE_REVIEW_MS);
    const id = newGraphId(15);
    await this.templates.transaction(async (tx) => {
      const template = { id, name, language: b.language as string, category: b.category as string, components: b.components as unknown[], outcome: review.outcome, reason: review.reason, reviewed_at: reviewedAt };
      if (!(await this.templates.insert(wabaId, template, tx))) throw GraphErrors.invalidParameter(`Message template "${name}" already exists in ${String(b.language)}.`, 'Content in this language already exists');
      const notification = templateStatusNotification(wabaId, { id, name, language: b.language as string, ...review }, reviewedAt);
      await this.outbox.record(tx, [
        { messageKey: `template:${id}`, body: JSON.stringify(notification), dueAt: reviewedAt, giveUpAt: new Date(reviewedAt.getTime() + this.config.SANDBOX_NOTIFY_GIVE_UP_MS) },
      ]);
    });
    this.dispatcher.wake();
    return { id, status: 'PENDING', category: b.category as string };
  }

  async list(wabaId: string, name?: string): Promise<{ data: ReturnType<typeof graphView>[] }> {
    const rows = await this.templates.list(wabaId, name ?? null);
    return { data: rows.map((row) => graphView(row)) };
  }

  /** `DELETE ?name=` removes every language of the name; `hsm_id` narrows it to one template, as at Meta. */
  async remove(wabaId: string, name: string | undefined, hsmId: string | undefined): Promise<{ success: true }> {
    if (!name) throw GraphErrors.invalidParameter('The parameter name is required.');
    if ((await this.templates.delete(wabaId, name, hsmId ?? null)) === 0) throw GraphErrors.invalidParameter(`Message template "${name}" not found.`);
    return { success: true };
  }
}
