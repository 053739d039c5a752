import { Controller, Headers, HttpCode, Param, Post, Req, type RawBodyRequest } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId } from '../http/request-context';
import { ProviderIntakeService } from './provider-intake.service';

/** 360dialog notifications (CONTRACT.md §7): Cloud API payloads, authenticated by the channel's `X-Channel-Token`. */
@Controller('webhooks/360dialog')
export class ThreeSixtyDialogWebhookController {
  constructor(private readonly intake: ProviderIntakeService) {}

  @Post(':channel_id')
  @HttpCode(200)
  async notify(
    @Param('channel_id', new PrefixedIdPipe('chn', 'Channel')) channelId: string,
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Headers('x-channel-token') token: string | undefined,
    @RequestId() requestId: string,
  ): Promise<void> {
    await this.intake.accept360Dialog(channelId, token, request.rawBody, requestId);
  }
}
