import { Body, Controller, Get, Header, Headers, HttpCode, Post, Query, Req, type RawBodyRequest } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { RequestId } from '../http/request-context';
import { ProviderIntakeService } from './provider-intake.service';

/** WhatsApp Cloud API webhook (CONTRACT.md §7). Public: authenticated by Meta's verify token and body signature. */
@Controller('webhooks/whatsapp')
export class WhatsappWebhookController {
  constructor(private readonly intake: ProviderIntakeService) {}

  @Get()
  @Header('content-type', 'text/plain; charset=utf-8')
  verify(@Query('hub.mode') mode: unknown, @Query('hub.verify_token') token: unknown, @Query('hub.challenge') challenge: unknown): string {
    const answer = this.intake.verifyMetaSubscription(mode, token, challenge);
    if (answer === null) throw new ProblemException(problem(403, ProblemTypes.forbidden, 'Forbidden', 'The verify token does not match.'));
    return answer;
  }

  @Post()
  @HttpCode(200)
  async notify(
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Headers('x-hub-signature-256') signature: string | undefined,
    @Body() body: unknown,
    @RequestId() requestId: string,
  ): Promise<void> {
    await this.intake.acceptMeta(request.rawBody, signature, body, requestId);
  }
}
