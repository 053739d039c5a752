import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { RequestId, Tenant } from '../http/request-context';
import { PlaygroundInboundBody, PlaygroundMessagesQuery } from './playground.dto';
import { PlaygroundService, type PlaygroundMessage, type PlaygroundWriteAnswer } from './playground.service';

/** The dashboard playground's relay to the WhatsApp sandbox (development only; authenticated like any tenant route). */
@Controller('api/v1/playground')
export class PlaygroundController {
  constructor(private readonly playground: PlaygroundService) {}

  @Post('inbound')
  @HttpCode(200)
  inbound(@Tenant() tenantId: string, @Body() body: PlaygroundInboundBody, @RequestId() requestId: string): Promise<PlaygroundWriteAnswer> {
    return this.playground.customerWrites(tenantId, body, requestId);
  }

  @Get('messages')
  messages(@Tenant() tenantId: string, @Query() query: PlaygroundMessagesQuery, @RequestId() requestId: string): Promise<{ data: PlaygroundMessage[] }> {
    return this.playground.deliveredTo(tenantId, query.customer, requestId);
  }
}
