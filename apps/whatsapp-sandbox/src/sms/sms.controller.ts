import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { InboundSmsDto, ListSmsQuery } from './sms.dto';
import { SmsService, TwilioApiError, type SandboxSms } from './sms.service';

/** Twilio's Messages API route (form-encoded, HTTP Basic auth with the account SID and auth token). */
@Controller('2010-04-01/Accounts')
export class TwilioMessagesController {
  constructor(
    private readonly sms: SmsService,
    private readonly config: WhatsappSandboxConfig,
  ) {}

  @Post(':account_sid/Messages.json')
  async create(
    @Param('account_sid') accountSid: string,
    @Headers('authorization') authorization: string | undefined,
    @Body() form: Record<string, string> | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    try {
      if (!this.authenticated(accountSid, authorization)) throw new TwilioApiError(401, 20003, 'Authentication Error - invalid username');
      const answer = await this.sms.create(accountSid, typeof form === 'object' && form !== null ? form : {});
      void reply.status(201);
      return answer;
    } catch (err) {
      if (!(err instanceof TwilioApiError)) throw err;
      void reply.status(err.status);
      return err.body();
    }
  }

  private authenticated(accountSid: string, authorization: string | undefined): boolean {
    const expected = Buffer.from(`Basic ${Buffer.from(`${this.config.SANDBOX_TWILIO_ACCOUNT_SID}:${this.config.SANDBOX_TWILIO_AUTH_TOKEN}`).toString('base64')}`);
    const given = Buffer.from(authorization ?? '');
    return accountSid === this.config.SANDBOX_TWILIO_ACCOUNT_SID && given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** The sandbox's SMS test hooks: play a customer texting in, and read what customers received. */
@Controller('_sandbox/sms')
export class SandboxSmsController {
  constructor(private readonly sms: SmsService) {}

  /** `200 {sid, webhook_status}`: the status the gateway answered the signed webhook with. */
  @Post('inbound')
  @HttpCode(200)
  receive(@Body() body: InboundSmsDto): Promise<{ sid: string; webhook_status: number }> {
    return this.sms.receive(body.from, body.to, body.body);
  }

  @Get('messages')
  async list(@Query() query: ListSmsQuery): Promise<{ data: SandboxSms[] }> {
    return { data: await this.sms.list(query) };
  }
}
