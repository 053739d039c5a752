/**
 * How many SMS a text goes out as (carriers and Twilio bill each part). GSM-7 when every character is in the GSM 03.38
 * alphabet: 160 septets in one SMS, 153 per part of a longer one (the rest is the concatenation header), with the
 * extension table's characters (`{ } [ ] ~ \ | ^ €` and form feed) taking two septets (an escape and the character).
 * Anything else makes the whole message UCS-2: 70 UTF-16 code units in one SMS, 67 per part. Parts never split an
 * escape pair or a surrogate pair (an emoji is two code units), as phones and Twilio split them.
 */

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC: ReadonlySet<string> = new Set(GSM7_BASIC);
const EXTENSION: ReadonlySet<string> = new Set(GSM7_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  /** Parts the text is sent as: at least 1, also for an empty text. */
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
}

const LIMITS: Readonly<Record<SmsEncoding, { single: number; part: number }>> = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
};

export function smsSegments(text: string): SmsSegments {
  const chars = [...text]; // code points: a surrogate pair stays one character
  const gsm = chars.every((c) => BASIC.has(c) || EXTENSION.has(c));
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  const widths = chars.map((c) => (gsm ? (EXTENSION.has(c) ? 2 : 1) : c.length));
  const units = widths.reduce((sum, w) => sum + w, 0);
  const { single, part } = LIMITS[encoding];
  if (units <= single) return { encoding, segments: 1, units };
  // Greedy parts, a character that does not fit whole starting the next part.
  let segments = 1;
  let used = 0;
  for (const w of widths) {
    if (used + w > part) {
      segments += 1;
      used = 0;
    }
    used += w;
  }
  return { encoding, segments, units };
}
