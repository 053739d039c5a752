import { Body, Controller, Get, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { InboundService, type InboundAnswer } from './inbound.service';
import { InboundMessageDto, ListMessagesQuery } from './messages.dto';
import type { SandboxMessageRecord } from './messages.mapper';
import { MessagesService } from './messages.service';

/** The sandbox's test hooks: play a customer writing in, and read what customers received (problem+json errors). */
@Controller('_sandbox')
export class SandboxMessagesController {
  constructor(
    private readonly inbound: InboundService,
    private readonly messages: MessagesService,
  ) {}

  /** `200 {id}` once the gateway took the customer's message; `202 {id, queued: true}` while the sandbox retries it. */
  @Post('inbound')
  async receive(@Body() body: InboundMessageDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<InboundAnswer> {
    const answer = await this.inbound.receive(body);
    void reply.status('queued' in answer ? 202 : 200);
    return answer;
  }

  @Get('messages')
  async list(@Query() query: ListMessagesQuery): Promise<{ data: SandboxMessageRecord[] }> {
    return { data: await this.messages.list(query) };
  }
}
