import { Injectable, NotFoundException } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { twilioSignature } from '../sms/twilio-signing';
import { readTwiml } from './twiml-reader';
import { VoiceCallsStore, type CallLine, type CallRow } from './voice-calls.store';

/** One line of a call as the played caller lived it. */
export type { CallLine } from './voice-calls.store';

/** A recorded call as the sandbox's test routes show it. */
export interface SandboxCall {
  sid: string;
  from: string;
  to: string;
  status: string;
  dialled: string | null;
  transcript: CallLine[];
  /** What the gateway answered each webhook with, in order (a forged call shows its 401 here). */
  webhook_statuses: number[];
  started_at: string;
  ended_at: string | null;
}

/** Redirects followed for one thing said before the sandbox gives up (a loop of fillers). */
const MAX_REDIRECTS = 10;
const newSid = () => `CA${randomBytes(16).toString('hex')}`;

/**
 * Twilio Voice as the sandbox plays it for a caller (CONTRACT.md §17): placing a call posts the signed incoming-call
 * webhook to the gateway and acts on the TwiML it answers, as a phone would: it hears each `<Say>`, follows
 * `<Redirect>`s, waits at a speech `<Gather>` for the caller's next sentence (posted as `SpeechResult` to the Gather's
 * action) and records a `<Dial>`. Hanging up posts the status callback with the call's duration.
 */
@Injectable()
export class VoiceService {
  constructor(
    private readonly calls: VoiceCallsStore,
    private readonly config: WhatsappSandboxConfig,
  ) {}

  async place(from: string, to: string, authToken?: string): Promise<SandboxCall> {
    const sid = newSid();
    await this.calls.insertRinging(sid, from, to);
    return this.follow(sid, this.config.twilioVoiceUrl, { CallStatus: 'ringing' }, authToken);
  }

  /** The caller says `text`: posted to the last Gather's action, then the answer acted on. */
  async say(sid: string, text: string): Promise<SandboxCall> {
    const call = await this.row(sid);
    if (!call.gather_action || call.ended_at) throw new NotFoundException(`Call ${sid} is not listening for speech.`);
    await this.append(sid, [{ who: 'caller', text }]);
    return this.follow(sid, new URL(call.gather_action, this.config.twilioVoiceUrl).toString(), { CallStatus: 'in-progress', SpeechResult: text, Confidence: '0.93' });
  }

  /** The caller hangs up after `durationSeconds` (else the time since the call started): Twilio's status callback. */
  async hangUp(sid: string, durationSeconds?: number): Promise<SandboxCall> {
    const call = await this.row(sid);
    const duration = durationSeconds ?? Math.round((Date.now() - call.started_at.getTime()) / 1000);
    await this.calls.end(sid, 'completed');
    const status = await this.post(this.config.twilioVoiceStatusUrl, { ...this.callParams(call), CallStatus: 'completed', CallDuration: String(duration) });
    await this.calls.append(sid, [{ who: 'system', text: `hung up after ${duration} s (status callback answered ${status})` }]);
    return this.show(sid, [status]);
  }

  async get(sid: string): Promise<SandboxCall> {
    return this.show(sid, []);
  }

  /** Posts to `url` and acts on the TwiML, following Redirects until the call waits for speech or ends. */
  private async follow(sid: string, url: string, extra: Record<string, string>, authToken?: string): Promise<SandboxCall> {
    const statuses: number[] = [];
    let next: string | null = url;
    let params = extra;
    for (let hop = 0; next && hop <= MAX_REDIRECTS; hop++) {
      const call = await this.row(sid);
      const response = await this.postForTwiml(next, { ...this.callParams(call), ...params }, authToken);
      statuses.push(response.status);
      if (response.status !== 200) {
        await this.calls.end(sid, 'failed');
        break;
      }
      const actions = readTwiml(response.body);
      await this.append(sid, actions.said.map((text) => ({ who: 'agent' as const, text })));
      const base: string = next;
      next = actions.redirect ? new URL(actions.redirect, base).toString() : null;
      params = { CallStatus: 'in-progress' };
      if (actions.gatherAction) {
        await this.calls.listening(sid, new URL(actions.gatherAction, base).toString());
      } else if (actions.dial) {
        await this.calls.dialled(sid, actions.dial);
      } else if (actions.hangup || !next) {
        await this.calls.end(sid, 'completed');
      }
    }
    return this.show(sid, statuses);
  }

  private callParams(call: CallRow): Record<string, string> {
    return { AccountSid: this.config.SANDBOX_TWILIO_ACCOUNT_SID, ApiVersion: '2010-04-01', CallSid: call.sid, Direction: 'inbound', From: call.from, To: call.to, Caller: call.from, Called: call.to };
  }

  private async append(sid: string, lines: CallLine[]): Promise<void> {
    if (lines.length) await this.calls.append(sid, lines);
  }

  private async row(sid: string): Promise<CallRow> {
    const row = await this.calls.find(sid);
    if (!row) throw new NotFoundException(`No call ${sid}.`);
    return row;
  }

  private async show(sid: string, webhookStatuses: number[]): Promise<SandboxCall> {
    const r = await this.row(sid);
    return { sid: r.sid, from: r.from, to: r.to, status: r.status, dialled: r.dialled, transcript: r.transcript, webhook_statuses: webhookStatuses, started_at: r.started_at.toISOString(), ended_at: r.ended_at?.toISOString() ?? null };
  }

  private async post(url: string, params: Record<string, string>): Promise<number> {
    return (await this.postForTwiml(url, params)).status;
  }

  /** Posts a form as Twilio does, signed with the account's auth token (a test may forge it with another token). */
  private async postForTwiml(url: string, params: Record<string, string>, authToken = this.config.SANDBOX_TWILIO_AUTH_TOKEN): Promise<{ status: number; body: string }> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(authToken, url, params), 'user-agent': 'TwilioProxy/1.1' },
      body: new URLSearchParams(params).toString(),
      // Twilio gives a voice webhook 15 s before it plays its own error message.
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, body: await response.text() };
  }
}

