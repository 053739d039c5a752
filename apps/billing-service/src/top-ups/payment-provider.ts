import { Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { BillingServiceConfig } from '../config/billing-service.config';

/** Currencies Stripe counts in whole units (no minor unit); every other one has two decimals. */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);

/** A decimal amount in the currency's minor unit, as Stripe's `unit_amount` wants it ("20.5" USD → 2050). */
export function toMinorUnits(amount: string, currency: string): number {
  const [whole, fraction = ''] = amount.split('.');
  const digits = ZERO_DECIMAL.has(currency) ? 0 : 2;
  if (fraction.replace(/0+$/, '').length > digits) throw new Error(`${amount} ${currency} has more decimals than the currency's minor unit`);
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0').slice(0, digits) || '0');
}

export interface CheckoutRequest {
  topUpId: string;
  tenantId: string;
  amount: string;
  currency: string;
  successUrl: string;
  cancelUrl: string;
}

/**
 * The payment provider, spoken to with the official `stripe` library: Checkout Sessions out, signed webhooks in.
 * STRIPE_API_BASE points it at the local stand-in in development.
 */
@Injectable()
export class PaymentProvider {
  private readonly stripe: Stripe;

  constructor(private readonly config: BillingServiceConfig) {
    const base = new URL(config.STRIPE_API_BASE);
    const protocol = base.protocol === 'http:' ? 'http' : 'https';
    this.stripe = new Stripe(config.STRIPE_SECRET_KEY, {
      host: base.hostname,
      port: base.port || (protocol === 'http' ? 80 : 443),
      protocol,
      maxNetworkRetries: 2,
      timeout: 10_000,
      telemetry: false,
    });
  }

  /** A Checkout Session for one payment of `amount`; the session and its event name the tenant and the top-up. */
  createCheckout(req: CheckoutRequest): Promise<Stripe.Checkout.Session> {
    return this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: { currency: req.currency.toLowerCase(), unit_amount: toMinorUnits(req.amount, req.currency), product_data: { name: 'Parley wallet top-up' } },
          },
        ],
        client_reference_id: req.topUpId,
        metadata: { tenant_id: req.tenantId, top_up_id: req.topUpId },
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
      },
      // A retried create (the library retries network failures) makes no second session.
      { idempotencyKey: `top-up:${req.topUpId}` },
    );
  }

  /** The event of a webhook whose `Stripe-Signature` signs these exact bytes; throws when it does not (or is too old). */
  verifiedEvent(payload: string, signature: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(payload, signature, this.config.STRIPE_WEBHOOK_SECRET);
  }
}
