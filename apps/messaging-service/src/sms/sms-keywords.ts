/** What a carrier keyword asks for (CTIA and Twilio's defaults): leave, come back, or be told how. */
export type SmsKeywordKind = 'stop' | 'start' | 'help';

export interface SmsKeyword {
  kind: SmsKeywordKind;
  /** The keyword as the customer wrote it, upper-cased (recorded with the opt-out and in `contact.opted_out`). */
  keyword: string;
}

/** The whole message is the keyword (Twilio's rule): "stop texting me about the sale" is a message for the agent. */
const KEYWORDS: Readonly<Record<string, SmsKeywordKind>> = {
  STOP: 'stop',
  STOPALL: 'stop',
  UNSUBSCRIBE: 'stop',
  CANCEL: 'stop',
  END: 'stop',
  QUIT: 'stop',
  OPTOUT: 'stop',
  REVOKE: 'stop',
  START: 'start',
  UNSTOP: 'start',
  YES: 'start',
  HELP: 'help',
  INFO: 'help',
};

/** The carrier keyword an inbound SMS is, if it is one: case, surrounding space and a trailing full stop or "!" ignored. */
export function smsKeyword(text: string): SmsKeyword | null {
  const keyword = text
    .trim()
    .replace(/[.!]+$/, '')
    .toUpperCase();
  const kind = Object.hasOwn(KEYWORDS, keyword) ? KEYWORDS[keyword] : undefined;
  return kind ? { kind, keyword } : null;
}

/**
 * The confirmation a carrier expects after each keyword. Sent by us only where the provider does not answer them
 * itself (Twilio's default opt-out handling answers STOP, START and HELP on its numbers).
 */
export const SMS_KEYWORD_REPLIES: Readonly<Record<SmsKeywordKind, string>> = {
  stop: 'You are unsubscribed and will get no more messages from this number. Reply START to resubscribe.',
  start: 'You are subscribed again and can get messages from this number. Reply STOP to unsubscribe.',
  help: 'This number is answered by an automated assistant; just write your question. Reply STOP to unsubscribe, START to resubscribe.',
};
