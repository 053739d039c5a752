import type { EventEnvelope } from './envelope';

/**
 * `voice.call_ended`: a call to a voice channel is over (Twilio's final status callback, CONTRACT.md §17). Billing
 * meters its `billable_minutes` as `voice_minute` once per `call_sid` (a redelivered or repeated callback adds none).
 */
export interface VoiceCallEndedData {
  tenant_id: string;
  channel_id: string;
  /** Twilio's id of the call: the metering's idempotency key. */
  call_sid: string;
  /** The caller (E.164). */
  from: string;
  /** The channel's number that was called. */
  to: string;
  /** Twilio's final call status: completed, busy, failed, no-answer or canceled. */
  status: string;
  duration_seconds: number;
  /** Started minutes, as carriers bill them (0 for a call never answered). */
  billable_minutes: number;
  ended_at: string;
}

export type VoiceCallEndedEvent = EventEnvelope<'voice.call_ended', VoiceCallEndedData>;
