import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GraphErrors } from '../cloud-api/graph-error';
import { newGraphId } from '../cloud-api/ids';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { NotificationDispatcher } from '../notifications/notification-dispatcher.service';
import { NotificationOutbox } from '../notifications/notification-outbox.store';
import { reviewOutcome, templateStatusNotification } from './template-review';

interface TemplateRow {
  id: string;
  name: string;
  language: string;
  category: string;
  components: unknown[];
  outcome: 'APPROVED' | 'REJECTED';
  reason: string | null;
  reviewed_at: Date;
}

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
    @InjectDataSource() private readonly db: DataSource,
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
    await this.db.transaction(async (tx) => {
      const inserted = (await tx.query(
        `INSERT INTO templates (id, waba_id, name, language, category, components, outcome, reason, reviewed_at)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9) ON CONFLICT (waba_id, name, language) DO NOTHING RETURNING id`,
        [id, wabaId, name, b.language, b.category, JSON.stringify(b.components), review.outcome, review.reason, reviewedAt],
      )) as unknown[];
      if (inserted.length === 0) throw GraphErrors.invalidParameter(`Message template "${name}" already exists in ${String(b.language)}.`, 'Content in this language already exists');
      const notification = templateStatusNotification(wabaId, { id, name, language: b.language as string, ...review }, reviewedAt);
      await this.outbox.record(tx, [
        { messageKey: `template:${id}`, body: JSON.stringify(notification), dueAt: reviewedAt, giveUpAt: new Date(reviewedAt.getTime() + this.config.SANDBOX_NOTIFY_GIVE_UP_MS) },
      ]);
    });
    this.dispatcher.wake();
    return { id, status: 'PENDING', category: b.category as string };
  }

  async list(wabaId: string, name?: string): Promise<{ data: ReturnType<typeof graphView>[] }> {
    const rows = (await this.db.query(`SELECT * FROM templates WHERE waba_id = $1 AND ($2::text IS NULL OR name = $2) ORDER BY created_at DESC`, [
      wabaId,
      name ?? null,
    ])) as TemplateRow[];
    return { data: rows.map((row) => graphView(row)) };
  }

  /** `DELETE ?name=` removes every language of the name; `hsm_id` narrows it to one template, as at Meta. */
  async remove(wabaId: string, name: string | undefined, hsmId: string | undefined): Promise<{ success: true }> {
    if (!name) throw GraphErrors.invalidParameter('The parameter name is required.');
    const deleted = (await this.db.query(`DELETE FROM templates WHERE waba_id = $1 AND name = $2 AND ($3::text IS NULL OR id = $3) RETURNING id`, [
      wabaId,
      name,
      hsmId ?? null,
    ])) as unknown[];
    if (deleted.length === 0) throw GraphErrors.invalidParameter(`Message template "${name}" not found.`);
    return { success: true };
  }
}
