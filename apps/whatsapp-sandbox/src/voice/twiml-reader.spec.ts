import { readTwiml } from './twiml-reader';

describe('the sandbox’s TwiML reader', () => {
  it('hears the Say inside a speech Gather and stops there, ignoring the silence fallback after it', () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><Response><Gather input="speech" action="/webhooks/twilio/voice/gather?turn=1&amp;a=b" method="POST">' +
      '<Say language="en-US">Hi, this is Acme &amp; co.</Say></Gather><Redirect method="POST">/elsewhere</Redirect></Response>';
    expect(readTwiml(xml)).toEqual({ said: ['Hi, this is Acme & co.'], gatherAction: '/webhooks/twilio/voice/gather?turn=1&a=b', redirect: null, dial: null, hangup: false });
  });

  it('follows a filler’s Redirect, and hears a Dial and a Hangup', () => {
    expect(readTwiml('<Response><Say>One moment.</Say><Redirect method="POST">/r?t=2</Redirect></Response>')).toMatchObject({ said: ['One moment.'], redirect: '/r?t=2' });
    expect(readTwiml('<Response><Say>Connecting you.</Say><Dial>+14155550123</Dial></Response>')).toMatchObject({ said: ['Connecting you.'], dial: '+14155550123' });
    expect(readTwiml('<Response><Say>Bye.</Say><Hangup/></Response>')).toMatchObject({ said: ['Bye.'], hangup: true });
    expect(readTwiml('<Response></Response>')).toEqual({ said: [], gatherAction: null, redirect: null, dial: null, hangup: false });
  });
});
