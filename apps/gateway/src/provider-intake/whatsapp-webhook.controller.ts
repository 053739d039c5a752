import { Controller, Get, Header, Headers, HttpCode, Ip, Post, Query, Req, type RawBodyRequest } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { RequestId } from '../http/request-context';
import { FailedAttemptLimiter } from '../rate-limits/failed-attempt-limiter';
import { ProviderIntakeService } from './provider-intake.service';
import { ApiQuery } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

/** WhatsApp Cloud API webhook (CONTRACT.md §7). Public: authenticated by Meta's verify token and body signature. */
@Controller('webhooks/whatsapp')
export class WhatsappWebhookController {
  constructor(
    private readonly intake: ProviderIntakeService,
    private readonly failures: FailedAttemptLimiter,
  ) {}

  @ApiRoute({
    summary: 'Meta webhook verification (hub.challenge)',
    access: 'provider',
    success: { status: 200, description: 'The challenge, as plain text.', schema: { type: 'string' }, contentType: 'text/plain' },
    errors: [403, 429],
  })
  @ApiQuery({ name: 'hub.mode', required: true, schema: { type: 'string', enum: ['subscribe'] } })
  @ApiQuery({ name: 'hub.verify_token', required: true, schema: { type: 'string' } })
  @ApiQuery({ name: 'hub.challenge', required: true, schema: { type: 'string' } })
  @Get()
  @Header('content-type', 'text/plain; charset=utf-8')
  verify(@Query('hub.mode') mode: unknown, @Query('hub.verify_token') token: unknown, @Query('hub.challenge') challenge: unknown, @Ip() ip: string): Promise<string> {
    return this.failures.attempt(ip, async () => {
      const answer = this.intake.verifyMetaSubscription(mode, token, challenge);
      if (answer === null) throw new ProblemException(problem(403, ProblemTypes.forbidden, 'Forbidden', 'The verify token does not match.'));
      return answer;
    });
  }

  @ApiRoute({
    summary: 'WhatsApp Cloud API notifications (signed with X-Hub-Signature-256)',
    description: 'Any validly signed body answers 200 once durably queued, JSON or not, in any content type; bodies up to 10 MiB.',
    access: 'provider',
    body: { schema: { type: 'object', additionalProperties: true, description: 'A Cloud API notification (`object: whatsapp_business_account`).' }, contentTypes: ['application/json'] },
    headers: [{ name: 'X-Hub-Signature-256', description: '`sha256=<hex HMAC-SHA256 of the raw body, key META_APP_SECRET>` (required).' }],
    success: { status: 200, description: 'Durably queued.' },
    errors: [401, 413, 429, 503],
  })
  @Post()
  @HttpCode(200)
  async notify(
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Headers('x-hub-signature-256') signature: string | undefined,
    @RequestId() requestId: string,
  ): Promise<void> {
    // The body is never parsed on the way in (PROVIDER_INTAKE_PREFIX): the signature covers these bytes, whatever they hold.
    await this.failures.attempt(request.ip, () => this.intake.acceptMeta(request.rawBody ?? Buffer.alloc(0), signature, requestId));
  }
}
