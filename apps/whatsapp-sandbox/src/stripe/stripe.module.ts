import { Module } from '@nestjs/common';
import { CheckoutSessionsService } from './checkout-sessions.service';
import { SandboxStripeController, StripeCheckoutApiController, StripeCheckoutPageController } from './stripe.controller';
import { StripeEventDispatcher } from './stripe-event-dispatcher.service';
import { StripeEventsService } from './stripe-events.service';
import { StripeStore } from './stripe.store';

/** The Stripe stand-in (issue 23): Checkout Sessions, the hosted page that plays paying, signed webhook events. */
@Module({
  controllers: [StripeCheckoutApiController, StripeCheckoutPageController, SandboxStripeController],
  providers: [CheckoutSessionsService, StripeEventDispatcher, StripeEventsService, StripeStore],
})
export class StripeModule {}
