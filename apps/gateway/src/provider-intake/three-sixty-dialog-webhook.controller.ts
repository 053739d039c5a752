import { Controller, Headers, HttpCode, Param, Post, Req, type RawBodyRequest } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId } from '../http/request-context';
import { FailedAttemptLimiter } from '../rate-limits/failed-attempt-limiter';
import { ProviderIntakeService } from './provider-intake.service';
import { ApiRoute } from '../openapi/api-route.decorator';

/** 360dialog notifications (CONTRACT.md §7): Cloud API payloads, authenticated by the channel's `X-Channel-Token`. */
@Controller('webhooks/360dialog')
export class ThreeSixtyDialogWebhookController {
  constructor(
    private readonly intake: ProviderIntakeService,
    private readonly failures: FailedAttemptLimiter,
  ) {}

  @ApiRoute({
    summary: '360dialog notifications for one channel (X-Channel-Token)',
    access: 'provider',
    body: { schema: { type: 'object', additionalProperties: true, description: 'A Cloud API notification payload.' }, contentTypes: ['application/json'] },
    headers: [{ name: 'X-Channel-Token', description: 'The channel’s inbound_token, shown when it was connected (required).' }],
    success: { status: 200, description: 'Durably queued.' },
    errors: [400, 401, 404, 413, 429, 503],
  })
  @Post(':channel_id')
  @HttpCode(200)
  async notify(
    @Param('channel_id', new PrefixedIdPipe('chn', 'Channel')) channelId: string,
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Headers('x-channel-token') token: string | undefined,
    @RequestId() requestId: string,
  ): Promise<void> {
    await this.failures.attempt(request.ip, () => this.intake.accept360Dialog(channelId, token, request.rawBody, requestId));
  }
}
