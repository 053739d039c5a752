import { Injectable } from '@nestjs/common';
import { StripeApiError } from './stripe-api-error';
import { StripeEventDispatcher } from './stripe-event-dispatcher.service';
import { StripeStore, type StripeEventRow } from './stripe.store';

/** An event as the test route shows it: as stored, its time in ISO 8601. */
export type SandboxStripeEvent = Omit<StripeEventRow, 'created_at'> & { created_at: string };

/** What tests see of the events the stand-in owes or delivered, and redeliveries on demand. */
@Injectable()
export class StripeEventsService {
  constructor(
    private readonly stripe: StripeStore,
    private readonly dispatcher: StripeEventDispatcher,
  ) {}

  async list(sessionId: string | undefined): Promise<{ data: SandboxStripeEvent[] }> {
    const rows = await this.stripe.events(sessionId ?? null);
    return { data: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })) };
  }

  async redeliver(id: string, times: unknown): Promise<{ id: string; statuses: (number | string)[] }> {
    if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > 100) throw new StripeApiError(400, 'times must be an integer from 1 to 100.', 'times');
    const body = await this.stripe.eventBody(id);
    if (body === null) throw new StripeApiError(404, `No such event: '${id}'`, 'id');
    const statuses: (number | string)[] = [];
    for (let i = 0; i < times; i++) {
      const outcome = await this.dispatcher.deliver(body);
      statuses.push('status' in outcome ? outcome.status : outcome.error);
    }
    return { id, statuses };
  }
}
