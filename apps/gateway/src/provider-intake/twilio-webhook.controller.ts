import { Controller, Headers, HttpCode, Post, Req, type RawBodyRequest } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequestId } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { FailedAttemptLimiter } from '../rate-limits/failed-attempt-limiter';
import { ProviderIntakeService } from './provider-intake.service';

const FORM_BODY = {
  schema: { type: 'object' as const, additionalProperties: { type: 'string' as const }, description: 'Twilio’s form parameters (MessageSid, From, To, Body, MessageStatus, …).' },
  contentTypes: ['application/x-www-form-urlencoded'],
};
const SIGNATURE_HEADER = [{ name: 'X-Twilio-Signature', description: 'base64 HMAC-SHA1 of the URL and the sorted parameters, keyed with the account’s auth token (required).' }];

/**
 * Twilio Messaging webhooks (CONTRACT.md §17): inbound SMS and the status callbacks of the SMS we send, form-encoded
 * and signed with `X-Twilio-Signature` by the auth token of the account that owns the number.
 */
@Controller('webhooks/twilio/sms')
export class TwilioWebhookController {
  constructor(
    private readonly intake: ProviderIntakeService,
    private readonly failures: FailedAttemptLimiter,
  ) {}

  @ApiRoute({ summary: 'Twilio inbound SMS (signed with X-Twilio-Signature)', access: 'provider', body: FORM_BODY, headers: SIGNATURE_HEADER, success: { status: 200, description: 'Durably queued; answered with empty TwiML.' }, errors: [401, 413, 429, 503] })
  @Post()
  @HttpCode(200)
  async inbound(@Req() request: RawBodyRequest<FastifyRequest>, @Headers('x-twilio-signature') signature: string | undefined, @RequestId() requestId: string): Promise<void> {
    await this.failures.attempt(request.ip, () => this.intake.acceptTwilioSms(request, 'To', signature, requestId));
  }

  @ApiRoute({ summary: 'Twilio SMS status callbacks (signed with X-Twilio-Signature)', access: 'provider', body: FORM_BODY, headers: SIGNATURE_HEADER, success: { status: 200, description: 'Durably queued.' }, errors: [401, 413, 429, 503] })
  @Post('status')
  @HttpCode(200)
  async status(@Req() request: RawBodyRequest<FastifyRequest>, @Headers('x-twilio-signature') signature: string | undefined, @RequestId() requestId: string): Promise<void> {
    await this.failures.attempt(request.ip, () => this.intake.acceptTwilioSms(request, 'From', signature, requestId));
  }
}
