import { normalisePhone } from '../common/phone';

/** Call states after which the call is over (https://www.twilio.com/docs/voice/api/call-resource#call-status-values). */
const FINAL_STATUSES = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);

/** What one Twilio Voice webhook (form-encoded) says. */
export type TwilioVoiceEvent =
  /** A new call to one of our numbers: answer with the greeting. */
  | { kind: 'call'; callSid: string; from: string; to: string }
  /** The caller said something (`SpeechResult` posted to a `<Gather>` action); empty when they stayed silent. */
  | { kind: 'speech'; callSid: string; from: string; to: string; text: string; confidence: number | null }
  /** The call ended: end the conversation and meter `billableMinutes`. */
  | { kind: 'ended'; callSid: string; from: string; to: string; status: string; durationSeconds: number; billableMinutes: number }
  | { kind: 'ignored'; reason: string };

/** Parses a Twilio Voice webhook body: the incoming-call request, a Gather's speech result, or a status callback. */
export function parseTwilioVoiceWebhook(rawBody: string): TwilioVoiceEvent {
  const form = new URLSearchParams(rawBody);
  const callSid = form.get('CallSid');
  if (!callSid) return { kind: 'ignored', reason: 'no CallSid' };
  const from = normalisePhone(form.get('From') ?? '');
  const to = normalisePhone(form.get('To') ?? '');
  const status = form.get('CallStatus') ?? '';
  if (FINAL_STATUSES.has(status)) {
    const durationSeconds = Math.max(0, Math.floor(Number(form.get('CallDuration') ?? '0')) || 0);
    return { kind: 'ended', callSid, from, to, status, durationSeconds, billableMinutes: billableMinutes(durationSeconds) };
  }
  if (form.has('SpeechResult')) {
    const confidence = Number(form.get('Confidence'));
    return { kind: 'speech', callSid, from, to, text: (form.get('SpeechResult') ?? '').trim(), confidence: form.has('Confidence') && Number.isFinite(confidence) ? confidence : null };
  }
  if (!form.get('From') || !form.get('To')) return { kind: 'ignored', reason: 'no From or To' };
  return { kind: 'call', callSid, from, to };
}

/** Calls are billed per started minute, as carriers bill them; a call never answered costs nothing. */
export function billableMinutes(durationSeconds: number): number {
  return durationSeconds > 0 ? Math.ceil(durationSeconds / 60) : 0;
}
