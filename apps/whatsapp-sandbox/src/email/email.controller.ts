import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { InboundEmailDto, ListEmailQuery } from './email.dto';
import { EmailSinkService, type InboundEmailAnswer, type SandboxEmail } from './email-sink.service';

/** The sandbox's email test hooks: play a customer mailing in, and read what customers were sent. */
@Controller('_sandbox/email')
export class SandboxEmailController {
  constructor(private readonly email: EmailSinkService) {}

  /** `200 {accepted, code, response, message_id}`: what the business's SMTP listener answered (a 5xx refusal too). */
  @Post('inbound')
  @HttpCode(200)
  send(@Body() body: InboundEmailDto): Promise<InboundEmailAnswer> {
    return this.email.send(body);
  }

  @Get('messages')
  async list(@Query() query: ListEmailQuery): Promise<{ data: SandboxEmail[] }> {
    return { data: await this.email.list(query.to) };
  }
}
