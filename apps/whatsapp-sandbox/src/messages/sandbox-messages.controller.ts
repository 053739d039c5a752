import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { InboundService } from './inbound.service';
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

  @Post('inbound')
  @HttpCode(200)
  receive(@Body() body: InboundMessageDto): Promise<{ id: string }> {
    return this.inbound.receive(body);
  }

  @Get('messages')
  async list(@Query() query: ListMessagesQuery): Promise<{ data: SandboxMessageRecord[] }> {
    return { data: await this.messages.list(query) };
  }
}
