import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { PlaygroundMessagesSchema, PlaygroundWriteAnswerSchema } from './playground-schemas';
import { PlaygroundInboundBody, PlaygroundMessagesQuery } from './playground.dto';
import { PlaygroundService, type PlaygroundMessage, type PlaygroundWriteAnswer } from './playground.service';

/** The dashboard playground's relay to the WhatsApp sandbox (development only; authenticated like any tenant route). */
@Controller('api/v1/playground')
export class PlaygroundController {
  constructor(private readonly playground: PlaygroundService) {}

  @ApiRoute({
    summary: 'The playground’s customer writes to one of the tenant’s numbers (development only)',
    description:
      'Relayed to the WhatsApp sandbox, which delivers it as WhatsApp (or Twilio, `channel: "sms"`) would: `text`, or a photo (`type: "image"`, `media: {base64, mime_type}`, `caption`). `404` unless the sandbox is enabled in development; `503` when it does not answer.',
    access: 'tenant',
    body: PlaygroundInboundBody,
    success: { status: 200, description: 'The message’s id at the sandbox; `queued` while the platform has not taken it yet.', schema: PlaygroundWriteAnswerSchema },
    errors: [404, 503],
  })
  @Post('inbound')
  @HttpCode(200)
  inbound(@Tenant() tenantId: string, @Body() body: PlaygroundInboundBody, @RequestId() requestId: string): Promise<PlaygroundWriteAnswer> {
    return this.playground.customerWrites(tenantId, body, requestId);
  }

  @ApiRoute({
    summary: 'What the tenant’s numbers delivered to the playground’s customer (development only)',
    description: 'Oldest first, WhatsApp messages in the Cloud API’s shape and text messages in the same shape (`channel: "sms"`, no `phone_number_id`).',
    access: 'tenant',
    query: PlaygroundMessagesQuery,
    success: { status: 200, description: 'The messages the customer received.', schema: PlaygroundMessagesSchema },
    errors: [404, 503],
  })
  @Get('messages')
  messages(@Tenant() tenantId: string, @Query() query: PlaygroundMessagesQuery, @RequestId() requestId: string): Promise<{ data: PlaygroundMessage[] }> {
    return this.playground.deliveredTo(tenantId, query.customer, requestId);
  }
}
