import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { RichSendBody, SendMessageBody, type SendResult } from '@parley/contracts';
import type { FastifyReply } from 'fastify';
import { CurrentMember, RequestId, Tenant, type SignedInMember } from '../http/request-context';
import { parseIdempotencyKey } from '../idempotency/idempotency-key';
import { parseSendBody } from './send-body';
import { SendService } from './send.service';
import { ApiRoute, DOCUMENTED_BODIES } from '../openapi/api-route.decorator';
import { schemaRef } from '../openapi/dto-schema';

// Both shapes of a send are documented as components (the body is one of them).
for (const dto of [SendMessageBody, RichSendBody]) DOCUMENTED_BODIES.set(dto, { tenantScoped: true });

@Controller('v1/send')
export class SendController {
  constructor(private readonly sends: SendService) {}

  @ApiRoute({
    summary: 'Send a WhatsApp message',
    description:
      'Text: exactly one of `message` or `template`. Media, location and interactive messages (WhatsApp, CONTRACT §13): ' +
      '`{type: image|document|audio|video, media_id, caption?}` (a file from `POST /api/v1/media` of a type that fits), ' +
      '`{type: location, location: {latitude, longitude, name?, address?}}` or `{type: interactive, interactive: {type: button|list, ' +
      'body, buttons?|button?, sections?}}` (≤ 3 reply buttons of ≤ 20 characters; ≤ 10 list rows). Each broken rule answers 400 ' +
      'naming its field. `sent` means durably queued: never lost once answered.',
    access: 'tenant',
    body: { contentTypes: ['application/json'], schema: { oneOf: [schemaRef('SendMessageBody'), schemaRef('RichSendBody')] } },
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
    @CurrentMember() member: SignedInMember | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SendResult> {
    const body = await parseSendBody(raw);
    const key = parseIdempotencyKey(idempotencyKey);
    // A member's send (the inbox's template, say) is their reply in the conversation's thread.
    const author = member ? { type: 'member' as const, id: member.id } : undefined;
    if (key === undefined) return this.sends.send(tenantId, body, requestId, author);
    const { result, replayed } = await this.sends.sendOnce(tenantId, key, body, requestId, author);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return result;
  }
}
