import { billableMinutes, parseTwilioVoiceWebhook } from './twilio-voice-webhook';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const call = { CallSid: 'CA1', AccountSid: 'AC1', From: '+1 (415) 555-0100', To: '+14155550199', Direction: 'inbound' };

describe('Twilio Voice webhooks', () => {
  it('reads an incoming call', () => {
    expect(parseTwilioVoiceWebhook(form({ ...call, CallStatus: 'ringing' }))).toEqual({ kind: 'call', callSid: 'CA1', from: '+14155550100', to: '+14155550199' });
  });

  it('reads a Gather’s speech result as what the caller said, silence as empty', () => {
    expect(parseTwilioVoiceWebhook(form({ ...call, CallStatus: 'in-progress', SpeechResult: ' What time do you open? ', Confidence: '0.92' }))).toEqual({
      kind: 'speech',
      callSid: 'CA1',
      from: '+14155550100',
      to: '+14155550199',
      text: 'What time do you open?',
      confidence: 0.92,
    });
    expect(parseTwilioVoiceWebhook(form({ ...call, CallStatus: 'in-progress', SpeechResult: '' }))).toMatchObject({ kind: 'speech', text: '', confidence: null });
  });

  it.each([
    ['completed', '61', 2],
    ['completed', '60', 1],
    ['failed', '0', 0],
    ['no-answer', '', 0],
  ])('reads status %s with CallDuration %s as the end of the call, %s billable minutes', (status, duration, minutes) => {
    expect(parseTwilioVoiceWebhook(form({ ...call, CallStatus: status, CallDuration: duration }))).toMatchObject({ kind: 'ended', callSid: 'CA1', status, billableMinutes: minutes });
  });

  it('ignores bodies without a CallSid', () => {
    expect(parseTwilioVoiceWebhook(form({ From: '+14155550100', SpeechResult: 'hi' })).kind).toBe('ignored');
  });

  it('bills per started minute', () => {
    expect([0, 1, 59, 60, 61, 3600].map(billableMinutes)).toEqual([0, 1, 1, 1, 2, 60]);
  });
});
