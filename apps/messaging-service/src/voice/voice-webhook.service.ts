import { Injectable, Logger } from '@nestjs/common';
import { Topics, derivedId, type TwilioVoiceWebhook, type TwilioVoiceWebhookResult, type VoiceCallEndedData } from '@parley/contracts';
import { EventPublisher, RpcClient } from '@parley/kafka';
import type { ChannelEntity } from '../channels/channel.entity';
import { ChannelsService, type VoiceChannelSettings } from '../channels/channels.service';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { InboundMessagesService } from '../inbound/inbound-messages.service';
import { isValidTwilioSignature } from '../providers/twilio-signature';
import { parseTwilioVoiceWebhook } from './twilio-voice-webhook';
import { fillerAndRedirect, sayAndDial, sayAndGather, sayAndHangUp, sayLanguage } from './twiml';
import { VoiceState } from './voice-state';

/** Where the TwiML sends Twilio next: the number's voice URL (speech results) and the redirect that fetches a late reply. */
export const VOICE_WEBHOOK_PATH = '/webhooks/twilio/voice';
export const VOICE_REPLY_PATH = '/webhooks/twilio/voice/reply';

const DEFAULT_GREETING = 'Hello! How can I help you today?';
const FILLER = 'One moment, please.';
const NOT_HEARD = 'Sorry, I did not catch that. Could you say it again?';
const NO_ANSWER = 'Sorry, I have no answer for that right now. Is there anything else I can help with?';
const HANDING_OFF = 'Let me connect you to a person.';
/** Fillers played for one turn before the caller is asked to go on (the reply may never come: no agent, a failure). */
const MAX_FILLERS = 6;
const PUBLISH_TIMEOUT_MS = 5000;
/** The agent's greeting is asked of agent-service this long at most; the caller is greeted by default meanwhile. */
const AGENT_LOOKUP_TIMEOUT_MS = 1000;

/**
 * The voice channel (CONTRACT.md §17): answers Twilio Voice webhooks with TwiML. A call is greeted and listened to;
 * each thing the caller says is a customer message through the normal loop (message.inbound → responder → an agent
 * reply on message.outbound, which VoiceReplyAdapter leaves in the turn's mailbox), and the request carrying it waits
 * for that reply within the latency budget, else answers a filler and a redirect that waits again. A handoff dials the
 * channel's `forward_to`; the final status callback ends the call and announces its minutes for billing.
 */
@Injectable()
export class VoiceWebhookService {
  private readonly logger = new Logger(VoiceWebhookService.name);

  constructor(
    private readonly channels: ChannelsService,
    private readonly inbound: InboundMessagesService,
    private readonly voice: VoiceState,
    private readonly publisher: EventPublisher,
    private readonly config: MessagingServiceConfig,
    private readonly rpc: RpcClient,
  ) {}

  /** Authenticates the webhook against the auth token of the voice channel called, then answers it. */
  async handle(webhook: TwilioVoiceWebhook, requestId?: string): Promise<TwilioVoiceWebhookResult> {
    const startedAt = Date.now();
    const params = Object.fromEntries(new URLSearchParams(typeof webhook?.raw_body === 'string' ? webhook.raw_body : ''));
    const channel = params.To ? await this.channels.findByAddress('voice', params.To) : null;
    if (!channel || typeof webhook.signature !== 'string' || !Array.isArray(webhook.urls)) return { valid: false };
    const settings = this.channels.voiceSettings(channel);
    if (!webhook.urls.some((url) => typeof url === 'string' && isValidTwilioSignature(settings.auth_token, url, params, webhook.signature))) return { valid: false };
    return { valid: true, twiml: await this.answer(channel, settings, webhook, startedAt, requestId) };
  }

  private async answer(channel: ChannelEntity, settings: VoiceChannelSettings, webhook: TwilioVoiceWebhook, startedAt: number, requestId?: string): Promise<string> {
    const language = sayLanguage(settings.language);
    const event = parseTwilioVoiceWebhook(webhook.raw_body);
    const turn = Math.max(1, Number.parseInt(webhook.turn ?? '', 10) || 1);
    switch (event.kind) {
      case 'ended':
        await this.ended(channel, event);
        return sayAndHangUp(null, language);
      case 'ignored':
        this.logger.debug(`ignoring a voice webhook on channel ${channel.id}: ${event.reason}`);
        return sayAndHangUp(null, language);
      case 'speech': {
        if (!event.text) return sayAndGather(NOT_HEARD, language, gatherUrl(turn));
        await this.voice.calls.speaking({ callSid: event.callSid, tenantId: channel.tenantId, channelId: channel.id, turn: String(turn) }, channel.phoneNumber, event.from);
        const receivedAt = new Date().toISOString();
        // The call and turn name the utterance: Twilio repeating the request stores and announces it once.
        const inbound = { providerMessageId: `${event.callSid}:${turn}`, from: event.from, fromUserId: null, type: 'text' as const, text: event.text, sentAt: receivedAt, contactName: null };
        await this.inbound.receive(channel, inbound, receivedAt, requestId);
        return this.reply(channel, settings, event.callSid, turn, 0, startedAt);
      }
      case 'call':
        // A redirect after a filler carries no speech: it is the same turn's reply, fetched again.
        if (webhook.route === 'reply') return this.reply(channel, settings, event.callSid, turn, Number.parseInt(webhook.attempt ?? '', 10) || 1, startedAt);
        return sayAndGather(settings.greeting ?? (await this.agentGreeting(channel, requestId)) ?? DEFAULT_GREETING, language, gatherUrl(1));
    }
  }

  /** The agent's reply to `turn` spoken, with the next turn listened for; else a filler and another wait. */
  private async reply(channel: ChannelEntity, settings: VoiceChannelSettings, callSid: string, turn: number, attempt: number, startedAt: number): Promise<string> {
    const language = sayLanguage(settings.language);
    const budget = Math.max(1, this.config.VOICE_REPLY_WAIT_MS - (Date.now() - startedAt));
    const reply = await this.voice.replies.waitFor(callSid, String(turn), budget);
    const handoff = reply?.handoff || (await this.voice.calls.get(callSid))?.handoff;
    if (handoff && settings.forward_to) return sayAndDial(reply?.text ?? HANDING_OFF, language, settings.forward_to);
    if (reply) return sayAndGather(reply.text, language, gatherUrl(turn + 1));
    if (attempt >= MAX_FILLERS) {
      this.logger.warn(`no reply to turn ${turn} of call ${callSid} on channel ${channel.id} after ${attempt} fillers`);
      return sayAndGather(NO_ANSWER, language, gatherUrl(turn + 1));
    }
    return fillerAndRedirect(FILLER, language, `${VOICE_REPLY_PATH}?turn=${turn}&attempt=${attempt + 1}`);
  }

  /** The greeting of the agent that answers the channel (its own agent, else the tenant's oldest), when it can be known now. */
  private async agentGreeting(channel: ChannelEntity, requestId?: string): Promise<string | null> {
    const options = { requestId, timeoutMs: AGENT_LOOKUP_TIMEOUT_MS };
    try {
      if (channel.agent) {
        const own = await this.rpc.request('agents.get', { tenant_id: channel.tenantId, name: channel.agent }, options).catch(() => null);
        if (own) return own.greeting || null;
      }
      // Newest first: the oldest agent is the page's last.
      const agents = await this.rpc.request('agents.list', { tenant_id: channel.tenantId, limit: 100, cursor: null }, options);
      return agents.data.at(-1)?.greeting || null;
    } catch (err) {
      this.logger.warn(`the agent's greeting for channel ${channel.id} is not known now (the default greets): ${String(err)}`);
      return null;
    }
  }

  /** The call is over: forgotten, and its minutes announced once (the event id is the call's). */
  private async ended(channel: ChannelEntity, event: { callSid: string; from: string; to: string; status: string; durationSeconds: number; billableMinutes: number }): Promise<void> {
    await this.voice.calls.ended(event.callSid, channel.phoneNumber, event.from);
    const data: VoiceCallEndedData = {
      tenant_id: channel.tenantId,
      channel_id: channel.id,
      call_sid: event.callSid,
      from: event.from,
      to: channel.phoneNumber,
      status: event.status,
      duration_seconds: event.durationSeconds,
      billable_minutes: event.billableMinutes,
      ended_at: new Date().toISOString(),
    };
    const envelope = EventPublisher.envelope(Topics.VoiceCallEnded, channel.tenantId, data, derivedId('evt', 'voice.call_ended', event.callSid));
    await this.publisher.publishEvent(envelope, `${channel.tenantId}:${event.callSid}`, undefined, { timeoutMs: PUBLISH_TIMEOUT_MS });
  }
}

function gatherUrl(turn: number): string {
  return `${VOICE_WEBHOOK_PATH}?turn=${turn}`;
}
