import { fillerAndRedirect, sayAndDial, sayAndGather, sayAndHangUp, sayLanguage } from './twiml';

describe('voice TwiML', () => {
  it('speaks the text in the agent’s language inside a speech Gather that posts to the action, and asks again on silence', () => {
    const xml = sayAndGather('Hello & welcome to <Acme>', 'fr-FR', 'https://api.example.com/webhooks/twilio/voice/gather?turn=1&x=2');
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Gather input="speech" action="https://api.example.com/webhooks/twilio/voice/gather?turn=1&amp;x=2" method="POST" language="fr-FR" speechTimeout="auto" timeout="5">' +
        '<Say language="fr-FR">Hello &amp; welcome to &lt;Acme&gt;</Say></Gather>' +
        '<Redirect method="POST">https://api.example.com/webhooks/twilio/voice/gather?turn=1&amp;x=2</Redirect></Response>',
    );
  });

  it('fills a slow reply with a short Say and a Redirect to the reply route', () => {
    expect(fillerAndRedirect('One moment.', 'en-US', '/r?t=2')).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-US">One moment.</Say><Redirect method="POST">/r?t=2</Redirect></Response>');
  });

  it('dials forward_to on handoff, saying the reply first when there is one', () => {
    expect(sayAndDial('Connecting you.', 'en-US', '+14155550123')).toContain('<Say language="en-US">Connecting you.</Say><Dial>+14155550123</Dial>');
    expect(sayAndDial(null, 'en-US', '+14155550123')).toContain('<Response><Dial>+14155550123</Dial></Response>');
    expect(sayAndHangUp('Goodbye.', 'en-US')).toContain('<Say language="en-US">Goodbye.</Say><Hangup/>');
  });

  it('turns an agent’s bare language into the locale Say wants, keeping full tags', () => {
    expect(sayLanguage('en')).toBe('en-US');
    expect(sayLanguage('DE')).toBe('de-DE');
    expect(sayLanguage('pt-PT')).toBe('pt-PT');
    expect(sayLanguage(null)).toBe('en-US');
    expect(sayLanguage('sw')).toBe('sw');
  });
});
