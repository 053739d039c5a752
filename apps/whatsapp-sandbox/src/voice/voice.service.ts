import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { twilioSignature } from '../sms/twilio-signing';
import { readTwiml } from './twiml-reader';

/** One line of a call as the played caller lived it. */
export type CallLine = { who: 'agent'; text: string } | { who: 'caller'; text: string } | { who: 'system'; text: string };

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: WhatsappSandboxConfig,
  ) {}

  async place(from: string, to: string, authToken?: string): Promise<SandboxCall> {
    const sid = newSid();
    await this.db.query(`INSERT INTO voice_calls (sid, "from", "to", status) VALUES ($1, $2, $3, 'ringing')`, [sid, from, to]);
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
    await this.db.query(`UPDATE voice_calls SET status = 'completed', gather_action = NULL, ended_at = now() WHERE sid = $1`, [sid]);
    const status = await this.post(this.config.twilioVoiceStatusUrl, { ...this.callParams(call), CallStatus: 'completed', CallDuration: String(duration) });
    await this.db.query(`UPDATE voice_calls SET transcript = transcript || $2::jsonb WHERE sid = $1`, [sid, JSON.stringify([{ who: 'system', text: `hung up after ${duration} s (status callback answered ${status})` }])]);
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
        await this.db.query(`UPDATE voice_calls SET status = 'failed', gather_action = NULL, ended_at = now() WHERE sid = $1`, [sid]);
        break;
      }
      const actions = readTwiml(response.body);
      await this.append(sid, actions.said.map((text) => ({ who: 'agent' as const, text })));
      const base: string = next;
      next = actions.redirect ? new URL(actions.redirect, base).toString() : null;
      params = { CallStatus: 'in-progress' };
      if (actions.gatherAction) {
        await this.db.query(`UPDATE voice_calls SET status = 'in-progress', gather_action = $2 WHERE sid = $1`, [sid, new URL(actions.gatherAction, base).toString()]);
      } else if (actions.dial) {
        await this.db.query(`UPDATE voice_calls SET status = 'in-progress', gather_action = NULL, dialled = $2 WHERE sid = $1`, [sid, actions.dial]);
      } else if (actions.hangup || !next) {
        await this.db.query(`UPDATE voice_calls SET status = 'completed', gather_action = NULL, ended_at = now() WHERE sid = $1`, [sid]);
      }
    }
    return this.show(sid, statuses);
  }

  private callParams(call: CallRow): Record<string, string> {
    return { AccountSid: this.config.SANDBOX_TWILIO_ACCOUNT_SID, ApiVersion: '2010-04-01', CallSid: call.sid, Direction: 'inbound', From: call.from, To: call.to, Caller: call.from, Called: call.to };
  }

  private async append(sid: string, lines: CallLine[]): Promise<void> {
    if (lines.length) await this.db.query(`UPDATE voice_calls SET transcript = transcript || $2::jsonb WHERE sid = $1`, [sid, JSON.stringify(lines)]);
  }

  private async row(sid: string): Promise<CallRow> {
    const [row] = (await this.db.query(`SELECT * FROM voice_calls WHERE sid = $1`, [sid])) as CallRow[];
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

interface CallRow {
  sid: string;
  from: string;
  to: string;
  status: string;
  gather_action: string | null;
  dialled: string | null;
  transcript: CallLine[];
  started_at: Date;
  ended_at: Date | null;
}
