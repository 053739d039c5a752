/** What one TwiML document tells the caller's phone to do, in the order the sandbox acts on it. */
export interface TwimlActions {
  /** Every `<Say>`, in order (including those inside a `<Gather>`). */
  said: string[];
  /** The action of a speech `<Gather>`: the next thing the caller says is posted there. */
  gatherAction: string | null;
  /** A `<Redirect>` outside a Gather: fetched next. */
  redirect: string | null;
  /** The number of a `<Dial>`. */
  dial: string | null;
  hangup: boolean;
}

const VERB = /<(Say|Gather|Redirect|Dial)\b([^>]*)>([\s\S]*?)<\/\1>|<(Hangup|Gather)\b([^>]*)\/>/g;

/**
 * Reads the TwiML verbs the voice channel uses (https://www.twilio.com/docs/voice/twiml). Like Twilio, a `<Gather>`
 * stops the document: what follows it (the silence fallback) is not acted on while the caller speaks.
 */
export function readTwiml(xml: string): TwimlActions {
  const actions: TwimlActions = { said: [], gatherAction: null, redirect: null, dial: null, hangup: false };
  for (const match of xml.matchAll(VERB)) {
    const verb = match[1] ?? match[4];
    const attributes = match[2] ?? match[5] ?? '';
    const inner = match[3] ?? '';
    if (verb === 'Say') actions.said.push(unescapeXml(inner.trim()));
    else if (verb === 'Gather') {
      for (const say of inner.matchAll(/<Say\b[^>]*>([\s\S]*?)<\/Say>/g)) actions.said.push(unescapeXml(say[1].trim()));
      actions.gatherAction = unescapeXml(/\baction="([^"]*)"/.exec(attributes)?.[1] ?? '');
      return actions;
    } else if (verb === 'Redirect') {
      actions.redirect = unescapeXml(inner.trim());
      return actions;
    } else if (verb === 'Dial') {
      actions.dial = unescapeXml(inner.replace(/<[^>]+>/g, '').trim());
      return actions;
    } else if (verb === 'Hangup') {
      actions.hangup = true;
      return actions;
    }
  }
  return actions;
}

function unescapeXml(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e] as string);
}
