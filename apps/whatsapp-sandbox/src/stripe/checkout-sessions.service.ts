import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { StripeApiError } from './stripe-api-error';
import { StripeEventDispatcher } from './stripe-event-dispatcher.service';
import { StripeStore } from './stripe.store';

/** A Checkout Session as Stripe's API answers it (the fields a payment-mode session has). */
export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: 'payment';
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete';
  success_url: string;
  url: string | null;
}

const stripeId = (prefix: string) => `${prefix}_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;

/** Stripe's form encoding names nested fields with brackets: `line_items[0][price_data][unit_amount]`. */
function field(form: Record<string, string>, name: string): string | undefined {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Checkout Sessions of the Stripe stand-in: created over the API (payment mode, inline `price_data` line items),
 * paid on the sandbox's checkout page, which records a signed `checkout.session.completed` for the webhook endpoint.
 */
@Injectable()
export class CheckoutSessionsService {
  constructor(
    private readonly stripe: StripeStore,
    private readonly config: WhatsappSandboxConfig,
    private readonly dispatcher: StripeEventDispatcher,
  ) {}

  async create(form: Record<string, string>, origin: string): Promise<CheckoutSession> {
    if (field(form, 'mode') !== 'payment') throw new StripeApiError(400, 'The sandbox plays Checkout in payment mode only.', 'mode');
    const successUrl = field(form, 'success_url');
    if (!successUrl) throw new StripeApiError(400, 'Missing required param: success_url.', 'success_url');
    let currency: string | undefined;
    let total = 0;
    for (let i = 0; field(form, `line_items[${i}][quantity]`) !== undefined || field(form, `line_items[${i}][price_data][unit_amount]`) !== undefined; i++) {
      const prefix = `line_items[${i}]`;
      const unitAmount = Number(field(form, `${prefix}[price_data][unit_amount]`));
      const quantity = Number(field(form, `${prefix}[quantity]`) ?? '1');
      const lineCurrency = field(form, `${prefix}[price_data][currency]`);
      if (!Number.isInteger(unitAmount) || unitAmount < 0) throw new StripeApiError(400, 'Invalid integer: unit_amount.', `${prefix}[price_data][unit_amount]`);
      if (!Number.isInteger(quantity) || quantity < 1) throw new StripeApiError(400, 'Invalid integer: quantity.', `${prefix}[quantity]`);
      if (!lineCurrency || (currency && lineCurrency !== currency)) throw new StripeApiError(400, 'Every line item needs the same currency.', `${prefix}[price_data][currency]`);
      currency = lineCurrency;
      total += unitAmount * quantity;
    }
    if (!currency) throw new StripeApiError(400, 'Missing required param: line_items.', 'line_items');

    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(form)) {
      const match = /^metadata\[([^\]]+)\]$/.exec(key);
      if (match) metadata[match[1]] = value;
    }
    const id = stripeId('cs_test');
    const created = Math.floor(Date.now() / 1000);
    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: field(form, 'cancel_url') ?? null,
      client_reference_id: field(form, 'client_reference_id') ?? null,
      created,
      currency,
      customer: null,
      expires_at: created + 24 * 3600,
      livemode: false,
      metadata,
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: successUrl,
      url: `${origin}/c/pay/${id}`,
    };
    await this.stripe.insertSession(session);
    return session;
  }

  async get(id: string): Promise<CheckoutSession> {
    const session = await this.stripe.session(id);
    if (!session) throw new StripeApiError(404, `No such checkout.session: '${id}'`, 'id');
    return session;
  }

  /**
   * The customer pays: the session completes and a `checkout.session.completed` event is recorded for the endpoint in
   * the same transaction, then delivered (and retried until taken). Paying a completed session again changes nothing.
   */
  async pay(id: string): Promise<CheckoutSession> {
    const session = await this.stripe.transaction(async (tx) => {
      const current = await this.stripe.session(id, tx);
      if (!current) throw new StripeApiError(404, `No such checkout.session: '${id}'`, 'id');
      if (current.status === 'complete') return current;
      const paid: CheckoutSession = { ...current, status: 'complete', payment_status: 'paid', payment_intent: stripeId('pi'), url: null };
      await this.stripe.saveSession(paid, tx);
      const event = {
        id: stripeId('evt'),
        object: 'event',
        api_version: '2025-02-24.acacia',
        created: Math.floor(Date.now() / 1000),
        data: { object: paid },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: 'checkout.session.completed',
      };
      await this.stripe.insertEvent({ id: event.id, sessionId: id, type: event.type, body: JSON.stringify(event) }, this.config.SANDBOX_STRIPE_GIVE_UP_MS, tx);
      return paid;
    });
    this.dispatcher.wake();
    return session;
  }
}
