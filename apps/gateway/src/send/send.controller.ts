import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RequestId, Tenant } from '../http/request-context';
import { parseIdempotencyKey } from '../idempotency/idempotency-key';
import { parseSendBody } from './send-body';
import { SendService, type SendResult } from './send.service';

@Controller('v1/send')
export class SendController {
  constructor(private readonly sends: SendService) {}

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
