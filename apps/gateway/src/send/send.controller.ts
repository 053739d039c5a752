import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RequestId, Tenant } from '../http/request-context';
import { parseIdempotencyKey } from '../idempotency/idempotency-key';
import { parseSendBody } from './send-body';
import { SendService, type SendResult } from './send.service';
import { SendMessageBody } from '@parley/contracts';
import { ApiRoute } from '../openapi/api-route.decorator';

@Controller('v1/send')
export class SendController {
  constructor(private readonly sends: SendService) {}

  @ApiRoute({
    summary: 'Send a WhatsApp message',
    description: 'Exactly one of `message` (text) or `template`. `sent` means durably queued: never lost once answered.',
    access: 'tenant',
    body: SendMessageBody,
    headers: [{ name: 'Idempotency-Key', description: 'Per tenant, 24 h: a retry with an equal body answers the first answer again (same message_id).' }],
    success: { status: 200, description: 'Accepted and durably queued.', schema: 'SendResult' },
    errors: [402, 409, 503],
  })
  @Post()
  @HttpCode(200)
  async send(
    @Tenant() tenantId: string,
    @Body() raw: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SendResult> {
    const body = await parseSendBody(raw);
    const key = parseIdempotencyKey(idempotencyKey);
    if (key === undefined) return this.sends.send(tenantId, body, requestId);
    const { result, replayed } = await this.sends.sendOnce(tenantId, key, body, requestId);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return result;
  }
}
