import { Controller, Headers, HttpCode, Post, Req, type RawBodyRequest } from '@nestjs/common';
import { ProblemTypes, problem, type PaymentWebhookReceipt } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { RequestId } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { FailedAttemptLimiter } from '../rate-limits/failed-attempt-limiter';

/** Stripe's events are a few kB; anything near the broker's message size is no event of theirs. */
const MAX_EVENT_BYTES = 256 * 1024;

/**
 * The payment provider's webhook (Stripe's wire format, CONTRACT.md §16). Public: billing-service checks
 * `Stripe-Signature` over the exact bytes received and credits a paid top-up once; anything but a 2xx makes the
 * provider redeliver (a 503 while billing-service cannot answer).
 */
@Controller('webhooks/stripe')
export class StripeWebhookController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly failures: FailedAttemptLimiter,
  ) {}

  @ApiRoute({
    summary: 'Payment provider events (Stripe-compatible, signed with Stripe-Signature)',
    description: '`checkout.session.completed` of a paid top-up credits the wallet once, however often it is delivered; other events are acknowledged. A missing or wrong signature → `401`.',
    access: 'provider',
    body: { schema: { type: 'object', additionalProperties: true, description: 'A Stripe event (`object: "event"`).' }, contentTypes: ['application/json'] },
    headers: [{ name: 'Stripe-Signature', description: '`t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<raw body>", key STRIPE_WEBHOOK_SECRET>` (required).' }],
    success: { status: 200, description: 'Processed.', schema: 'PaymentWebhookReceived' },
    errors: [401, 413, 429, 503],
  })
  @Post()
  @HttpCode(200)
  receive(@Req() request: RawBodyRequest<FastifyRequest>, @Headers('stripe-signature') signature: string | undefined, @RequestId() requestId: string): Promise<PaymentWebhookReceipt> {
    const raw = request.rawBody ?? Buffer.alloc(0);
    if (raw.length > MAX_EVENT_BYTES) throw new ProblemException(problem(413, ProblemTypes.payloadTooLarge, 'Payload Too Large', `A payment event is at most ${MAX_EVENT_BYTES} bytes.`));
    const payload = raw.toString('utf8');
    return this.failures.attempt(request.ip, () => this.rpc.request('billing.payment-webhook', { payload, signature: signature ?? null }, { requestId, timeoutMs: 10_000 }));
  }
}
