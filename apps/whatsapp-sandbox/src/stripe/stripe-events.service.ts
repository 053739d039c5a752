import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StripeApiError } from './stripe-api-error';
import { StripeEventDispatcher } from './stripe-event-dispatcher.service';

export interface SandboxStripeEvent {
  id: string;
  session_id: string;
  type: string;
  attempts: number;
  delivered: boolean;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
}

/** What tests see of the events the stand-in owes or delivered, and redeliveries on demand. */
@Injectable()
export class StripeEventsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dispatcher: StripeEventDispatcher,
  ) {}

  async list(sessionId: string | undefined): Promise<{ data: SandboxStripeEvent[] }> {
    const rows = (await this.db.query(
      `SELECT id, session_id, type, attempts, delivered_at IS NOT NULL AS delivered, last_status, last_error, created_at
         FROM stripe_events WHERE ($1::text IS NULL OR session_id = $1) ORDER BY created_at DESC LIMIT 100`,
      [sessionId ?? null],
    )) as (Omit<SandboxStripeEvent, 'created_at'> & { created_at: Date })[];
    return { data: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })) };
  }

  async redeliver(id: string, times: unknown): Promise<{ id: string; statuses: (number | string)[] }> {
    if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > 100) throw new StripeApiError(400, 'times must be an integer from 1 to 100.', 'times');
    const [row] = (await this.db.query(`SELECT body FROM stripe_events WHERE id = $1`, [id])) as { body: string }[];
    if (!row) throw new StripeApiError(404, `No such event: '${id}'`, 'id');
    const statuses: (number | string)[] = [];
    for (let i = 0; i < times; i++) {
      const outcome = await this.dispatcher.deliver(row.body);
      statuses.push('status' in outcome ? outcome.status : outcome.error);
    }
    return { id, statuses };
  }
}
