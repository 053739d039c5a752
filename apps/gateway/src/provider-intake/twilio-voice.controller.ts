import { Controller, Header, Headers, HttpCode, Logger, Post, Query, Req, type RawBodyRequest } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { ProblemTypes, problem, type TwilioVoiceWebhook } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { RequestId } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { FailedAttemptLimiter } from '../rate-limits/failed-attempt-limiter';
import { ProviderIntakeService } from './provider-intake.service';

const FORM_BODY = {
  schema: { type: 'object' as const, additionalProperties: { type: 'string' as const }, description: 'Twilio’s form parameters (CallSid, From, To, CallStatus, SpeechResult, CallDuration, …).' },
  contentTypes: ['application/x-www-form-urlencoded'],
};
const SIGNATURE_HEADER = [{ name: 'X-Twilio-Signature', description: 'base64 HMAC-SHA1 of the URL and the sorted parameters, keyed with the voice number’s auth token (required).' }];
const TWIML = { status: 200, description: 'TwiML for the call (Say, Gather input="speech", Redirect, Dial or Hangup).', schema: { type: 'string' as const }, contentType: 'text/xml' };

/**
 * Twilio waits about 15 s for TwiML before it plays its own error; messaging-service answers within its reply wait
 * (VOICE_REPLY_WAIT_MS) and this leaves room for a slow hop.
 */
const VOICE_RPC_TIMEOUT_MS = 8_000;

/**
 * Twilio Voice webhooks (CONTRACT.md §17): a voice number's incoming calls, the speech its `<Gather>`s collect, the
 * redirects that fetch a late reply, and the call's status callback. Unlike SMS they are answered, not queued: Twilio
 * acts on the TwiML of the answer, which messaging-service (owner of the channel and its token) makes after checking
 * `X-Twilio-Signature` against the number called. Unsigned, forged or for a number nobody connected → 401.
 */
@Controller('webhooks/twilio/voice')
export class TwilioVoiceWebhookController {
  private readonly logger = new Logger(TwilioVoiceWebhookController.name);

  constructor(
    private readonly intake: ProviderIntakeService,
    private readonly rpc: RpcClient,
    private readonly failures: FailedAttemptLimiter,
  ) {}

  @ApiRoute({ summary: 'Twilio Voice: an incoming call or a Gather’s speech result (signed with X-Twilio-Signature)', access: 'provider', body: FORM_BODY, headers: SIGNATURE_HEADER, success: TWIML, errors: [401, 413, 429, 503] })
  @ApiQuery({ name: 'turn', required: false, schema: { type: 'string' }, description: 'The turn a Gather’s action names (set by our TwiML).' })
  @Post()
  @HttpCode(200)
  @Header('content-type', 'text/xml; charset=utf-8')
  call(@Req() request: RawBodyRequest<FastifyRequest>, @Headers('x-twilio-signature') signature: string | undefined, @Query('turn') turn: unknown, @RequestId() requestId: string): Promise<string> {
    return this.answer(request, 'call', signature, turn, undefined, requestId);
  }

  @ApiRoute({ summary: 'Twilio Voice: the redirect after a filler, fetching the agent’s reply (signed)', access: 'provider', body: FORM_BODY, headers: SIGNATURE_HEADER, success: TWIML, errors: [401, 413, 429, 503] })
  @ApiQuery({ name: 'turn', required: true, schema: { type: 'string' } })
  @ApiQuery({ name: 'attempt', required: false, schema: { type: 'string' } })
  @Post('reply')
  @HttpCode(200)
  @Header('content-type', 'text/xml; charset=utf-8')
  reply(
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Headers('x-twilio-signature') signature: string | undefined,
    @Query('turn') turn: unknown,
    @Query('attempt') attempt: unknown,
    @RequestId() requestId: string,
  ): Promise<string> {
    return this.answer(request, 'reply', signature, turn, attempt, requestId);
  }

  @ApiRoute({ summary: 'Twilio Voice status callback: the call ended, its minutes are metered (signed)', access: 'provider', body: FORM_BODY, headers: SIGNATURE_HEADER, success: TWIML, errors: [401, 413, 429, 503] })
  @Post('status')
  @HttpCode(200)
  @Header('content-type', 'text/xml; charset=utf-8')
  status(@Req() request: RawBodyRequest<FastifyRequest>, @Headers('x-twilio-signature') signature: string | undefined, @RequestId() requestId: string): Promise<string> {
    return this.answer(request, 'status', signature, undefined, undefined, requestId);
  }

  private answer(request: RawBodyRequest<FastifyRequest>, route: TwilioVoiceWebhook['route'], signature: string | undefined, turn: unknown, attempt: unknown, requestId: string): Promise<string> {
    return this.failures.attempt(request.ip, async () => {
      if (typeof signature !== 'string' || !signature || signature.length > 512) throw unauthorized();
      const webhook: TwilioVoiceWebhook = {
        route,
        turn: typeof turn === 'string' && /^\d{1,4}$/.test(turn) ? turn : null,
        attempt: typeof attempt === 'string' && /^\d{1,3}$/.test(attempt) ? attempt : null,
        urls: this.intake.signedUrls(request),
        raw_body: request.rawBody?.toString('utf8') ?? '',
        signature,
      };
      let result;
      try {
        result = await this.rpc.request('channels.voice-webhook', webhook, { requestId, timeoutMs: VOICE_RPC_TIMEOUT_MS });
      } catch (err) {
        if (err instanceof ProblemException) throw err;
        this.logger.warn(`Twilio voice webhook not answered now (Twilio will retry or play its error): ${String(err)}`);
        throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The call could not be answered now.'), { 'retry-after': '5' });
      }
      if (!result.valid) throw unauthorized();
      return result.twiml;
    });
  }
}

function unauthorized(): ProblemException {
  return new ProblemException(problem(401, ProblemTypes.unauthorized, 'Unauthorized', 'X-Twilio-Signature is missing or does not sign this request with the voice number’s auth token.'));
}
