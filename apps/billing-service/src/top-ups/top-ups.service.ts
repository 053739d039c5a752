import { Injectable, Logger } from '@nestjs/common';
import { CreateTopUpBody, ProblemTypes, newId, notFoundProblem, problem, type TopUpReceiptPdf, type TopUpRecord } from '@parley/contracts';
import { ProblemException, validateDto } from '@parley/service-kit';
import type Stripe from 'stripe';
import { BalanceView } from '../balance-view/balance-view';
import { BillingServiceConfig } from '../config/billing-service.config';
import { WalletsService } from '../wallet/wallets.service';
import { PaymentProvider, toMinorUnits } from './payment-provider';
import { renderReceiptPdf } from './receipt-pdf';
import { TopUpsStore, type TopUpRow } from './top-ups.store';

const toRecord = (row: TopUpRow): TopUpRecord => ({
  id: row.id,
  checkout_url: row.checkout_url ?? '',
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  created_at: row.created_at.toISOString(),
});

/**
 * Wallet top-ups (CONTRACT.md §16): a Checkout Session with the payment provider per top-up, and the provider's
 * signed `checkout.session.completed` webhook crediting the wallet once, however often it is redelivered.
 */
@Injectable()
export class TopUpsService {
  private readonly logger = new Logger(TopUpsService.name);

  constructor(
    private readonly store: TopUpsStore,
    private readonly config: BillingServiceConfig,
    private readonly provider: PaymentProvider,
    private readonly wallets: WalletsService,
    private readonly view: BalanceView,
  ) {}

  async create(tenantId: string, rawBody: unknown): Promise<TopUpRecord> {
    const body = await validateDto(CreateTopUpBody, rawBody);
    if (Number(body.amount) < 1) {
      throw new ProblemException(problem(400, ProblemTypes.validation, 'Invalid request', 'A top-up is at least 1.00.', [{ field: 'amount', message: 'amount must be at least 1.00' }]));
    }
    const { currency } = await this.wallets.get(tenantId);
    try {
      toMinorUnits(body.amount, currency);
    } catch {
      throw new ProblemException(problem(400, ProblemTypes.validation, 'Invalid request', `${currency} has no unit that small.`, [{ field: 'amount', message: `amount must be whole ${currency}` }]));
    }
    const id = newId('top');
    // Recorded before the provider is asked, so a session it made is always ours to match.
    await this.store.insert(tenantId, { id, amount: body.amount, currency });
    const back = `${this.config.GATEWAY_URL.replace(/\/+$/, '')}/dashboard/billing`;
    let session: Stripe.Checkout.Session;
    try {
      session = await this.provider.createCheckout({
        topUpId: id,
        tenantId,
        amount: body.amount,
        currency,
        successUrl: `${back}?top_up=${id}`,
        cancelUrl: `${back}?top_up=${id}&cancelled=1`,
      });
    } catch (err) {
      this.logger.warn(`the payment provider did not create a checkout for ${id}: ${String(err)}`);
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The payment provider could not be reached; try again shortly.'));
    }
    return toRecord(await this.store.attachSession(tenantId, id, session));
  }

  /** A paid top-up's receipt as PDF; a top-up not paid yet, or another tenant's, has none (404). */
  async receipt(tenantId: string, topUpId: string): Promise<TopUpReceiptPdf> {
    const row = await this.store.findPaid(tenantId, topUpId);
    if (!row?.paid_at) throw new ProblemException(notFoundProblem('The receipt'));
    const pdf = await renderReceiptPdf({ id: row.id, amount: row.amount, currency: row.currency, session_id: row.session_id, paid_at: row.paid_at.toISOString() }, tenantId);
    return { filename: `receipt-${row.id}.pdf`, pdf_base64: pdf.toString('base64') };
  }

  /**
   * A webhook from the provider, as received. A bad signature is refused (401, as the other provider webhooks are);
   * a verified `checkout.session.completed` of a paid session credits its top-up once; any other verified event is
   * acknowledged and ignored.
   */
  async handleWebhook(payload: string, signature: string | null): Promise<{ received: true }> {
    let event: Stripe.Event;
    try {
      event = this.provider.verifiedEvent(payload, signature ?? '');
    } catch (err) {
      throw new ProblemException(
        problem(401, ProblemTypes.unauthorized, 'Unauthorized', `Stripe-Signature is missing or does not sign this payload with the webhook secret: ${(err as Error).message.split('\n')[0]}`),
      );
    }
    if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
      await this.completed(event.data.object, event.id);
    }
    return { received: true };
  }

  private async completed(session: Stripe.Checkout.Session, eventId: string): Promise<void> {
    if (session.payment_status !== 'paid') return; // an asynchronous payment method: async_payment_succeeded follows
    const topUp = await this.store.findBySession(session.id);
    if (!topUp) {
      this.logger.warn(`checkout session ${session.id} (event ${eventId}) is no top-up of ours; ignored`);
      return;
    }
    if (session.amount_total !== null && session.amount_total !== toMinorUnits(topUp.amount, topUp.currency)) {
      this.logger.error(`checkout session ${session.id} paid ${session.amount_total} minor units, top-up ${topUp.id} asked ${topUp.amount} ${topUp.currency}; not credited`);
      return;
    }
    const credited = await this.wallets.transaction(async (manager) => {
      const wallet = await this.wallets.lock(manager, topUp.tenant_id);
      // Idempotent on the top-up: the ledger takes one top_up per cause id, so a redelivered or second event is a duplicate.
      const result = await this.wallets.postAndWatch(manager, {
        tenantId: topUp.tenant_id,
        type: 'top_up',
        amount: topUp.amount,
        currency: wallet.currency,
        causeId: topUp.id,
        // said for a person; the provider's session stays on the top-up (its receipt names it as the payment's reference)
        description: 'Top-up by card',
      });
      if (result.posted) {
        await this.store.markPaid(topUp.tenant_id, topUp.id, eventId, manager);
      }
      return result.posted;
    });
    if (credited) await this.view.push(topUp.tenant_id);
  }
}
