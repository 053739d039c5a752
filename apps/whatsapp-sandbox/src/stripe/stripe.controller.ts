import { Body, Controller, Get, Header, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { checkoutPage, escapeHtml } from './checkout-page';
import { CheckoutSessionsService, type CheckoutSession } from './checkout-sessions.service';
import { StripeApiError } from './stripe-api-error';
import { StripeEventsService } from './stripe-events.service';

/** Answers a Stripe API error in Stripe's shape and status; anything else goes on to the framework. */
async function stripeAnswer<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | ReturnType<StripeApiError['body']>> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof StripeApiError)) throw err;
    void reply.status(err.status);
    return err.body();
  }
}

/** Stripe's Checkout Sessions API (form-encoded, `Authorization: Bearer <secret key>`). */
@Controller('v1/checkout/sessions')
export class StripeCheckoutApiController {
  constructor(
    private readonly sessions: CheckoutSessionsService,
    private readonly config: WhatsappSandboxConfig,
  ) {}

  @Post()
  @HttpCode(200)
  create(@Headers('authorization') authorization: string | undefined, @Body() form: Record<string, string> | undefined, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return stripeAnswer(reply, () => {
      this.authenticate(authorization);
      return this.sessions.create(typeof form === 'object' && form !== null ? form : {}, `${request.protocol}://${request.headers.host ?? `127.0.0.1:${this.config.PORT}`}`);
    });
  }

  @Get(':id')
  get(@Headers('authorization') authorization: string | undefined, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return stripeAnswer(reply, () => {
      this.authenticate(authorization);
      return this.sessions.get(id);
    });
  }

  private authenticate(authorization: string | undefined): void {
    const expected = Buffer.from(`Bearer ${this.config.SANDBOX_STRIPE_SECRET_KEY}`);
    const given = Buffer.from(authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new StripeApiError(401, 'Invalid API Key provided.');
  }
}

/** The hosted checkout page, where the sandbox plays the customer paying. */
@Controller('c/pay')
export class StripeCheckoutPageController {
  constructor(private readonly sessions: CheckoutSessionsService) {}

  @Get(':id')
  @Header('content-type', 'text/html; charset=utf-8')
  async page(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    let session: CheckoutSession;
    try {
      session = await this.sessions.get(id);
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      void reply.status(404);
      return `<!doctype html><title>Not found</title><p>No checkout session ${escapeHtml(id)}.</p>`;
    }
    return checkoutPage(session);
  }

  /** The customer pressed Pay: complete the session, then go back to the merchant's success URL, as Checkout does. */
  @Post(':id')
  async pay(@Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    try {
      const session = await this.sessions.pay(id);
      void reply.redirect(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id), 303);
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      void reply.status(err.status).send(err.body());
    }
  }
}

/** Test hooks of the Stripe stand-in: the events recorded for a session, and redelivering one as often as asked. */
@Controller('_sandbox/stripe')
export class SandboxStripeController {
  constructor(
    private readonly sessions: CheckoutSessionsService,
    private readonly events: StripeEventsService,
  ) {}

  /** Plays the customer paying without the page (`200` with the completed session). */
  @Post('checkout/:id/pay')
  @HttpCode(200)
  pay(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return stripeAnswer(reply, () => this.sessions.pay(id));
  }

  @Get('events')
  list(@Query('session_id') sessionId: string | undefined) {
    return this.events.list(sessionId);
  }

  /** `{times}` (1–100, default 1) more deliveries of an event, one after another: `200 {id, statuses}`. */
  @Post('events/:id/redeliver')
  @HttpCode(200)
  redeliver(@Param('id') id: string, @Body() body: { times?: unknown } | undefined, @Res({ passthrough: true }) reply: FastifyReply) {
    return stripeAnswer(reply, () => this.events.redeliver(id, body?.times ?? 1));
  }
}
