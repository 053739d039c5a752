/**
 * TwiML for the voice channel (CONTRACT.md §17; https://www.twilio.com/docs/voice/twiml). Every answer to a Twilio
 * Voice webhook is one of these documents, served as `text/xml`.
 */

/** Seconds Twilio waits for the caller to start speaking before posting an empty SpeechResult. */
const GATHER_TIMEOUT_S = 5;

/** Twilio `<Say>` wants a locale (`en-US`); agents often carry a bare language (`en`). */
const DEFAULT_LOCALE: Readonly<Record<string, string>> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR', de: 'de-DE', it: 'it-IT', pt: 'pt-BR', nl: 'nl-NL', ja: 'ja-JP' };

export function sayLanguage(agentLanguage: string | null | undefined): string {
  const tag = (agentLanguage ?? '').trim();
  if (!tag) return 'en-US';
  return tag.includes('-') ? tag : (DEFAULT_LOCALE[tag.toLowerCase()] ?? tag);
}

/** Speaks `text` in `language`, then listens for the caller's next sentence, posted to `action`. */
export function sayAndGather(text: string, language: string, action: string): string {
  return document(
    `<Gather input="speech" action="${escapeXml(action)}" method="POST" language="${escapeXml(language)}" speechTimeout="auto" timeout="${GATHER_TIMEOUT_S}">` +
      `<Say language="${escapeXml(language)}">${escapeXml(text)}</Say></Gather>` +
      // Silence: ask again rather than hang up on the caller.
      `<Redirect method="POST">${escapeXml(action)}</Redirect>`,
  );
}

/** The reply is not ready within the latency budget: a short filler, then Twilio fetches `replyUrl` for it. */
export function fillerAndRedirect(filler: string, language: string, replyUrl: string): string {
  return document(`<Say language="${escapeXml(language)}">${escapeXml(filler)}</Say><Redirect method="POST">${escapeXml(replyUrl)}</Redirect>`);
}

/** Handoff: says `text` (when any), then connects the caller to a person at `forwardTo`. */
export function sayAndDial(text: string | null, language: string, forwardTo: string): string {
  const say = text ? `<Say language="${escapeXml(language)}">${escapeXml(text)}</Say>` : '';
  return document(`${say}<Dial>${escapeXml(forwardTo)}</Dial>`);
}

/** Ends the call (a channel nobody can take over, or a call we no longer know). */
export function sayAndHangUp(text: string | null, language: string): string {
  const say = text ? `<Say language="${escapeXml(language)}">${escapeXml(text)}</Say>` : '';
  return document(`${say}<Hangup/>`);
}

function document(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;
}

export function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}
