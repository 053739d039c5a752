import { findPhoneNumbersInText, parsePhoneNumberFromString } from 'libphonenumber-js';

export type LeadField = 'name' | 'email' | 'phone' | 'interest';
export const LEAD_FIELDS: readonly LeadField[] = ['name', 'email', 'phone', 'interest'];

export type LeadFacts = Partial<Record<LeadField, string>>;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
// An address spelt out to dodge spam filters: "john dot smith at example dot com", "ann(at)mail(dot)org". A bare "."
// separates only without spaces, so a sentence ("I'm at work. Later") never reads as a domain.
const SPOKEN_DOT = String.raw`(?:\.|\s*[([]dot[)\]]\s*|\s+dot\s+)`;
const SPOKEN_AT = String.raw`(?:\s*(?:@|[([]at[)\]])\s*|\s+at\s+)`;
const SPOKEN_EMAIL = new RegExp(String.raw`[A-Za-z0-9_%+-]+(?:${SPOKEN_DOT}[A-Za-z0-9_%+-]+)*${SPOKEN_AT}[A-Za-z0-9-]+(?:${SPOKEN_DOT}[A-Za-z0-9-]+)+`, 'i');
// Words that follow "I'm" without being a name ("I'm interested", "I'm looking for").
const NOT_NAMES = new Set(
  (
    'interested looking not just good fine ok okay here wondering trying hoping calling writing asking after sorry new back ' +
    'available free busy a an the in on at from with so very really also still actually planning thinking going keen ' +
    'after sure happy glad'
  ).split(' '),
);
const NAME_WORD = /^[\p{L}][\p{L}'’-]*$/u;

/**
 * The lead facts stated in one message: name, email, phone (E.164, read with libphonenumber in the customer's own
 * country) and interest. `expecting` is the field the agent just asked for: a bare answer ("Maria") then counts as it.
 */
export function extractLeadFacts(text: string, opts: { expecting?: LeadField | null; customerNumber?: string | null } = {}): LeadFacts {
  const facts: LeadFacts = {};
  let rest = text;

  const email = EMAIL.exec(rest)?.[0];
  const spoken = email ? null : spokenEmail(rest);
  if (email) {
    facts.email = email.replace(/\.$/, '').toLowerCase();
    rest = rest.replace(email, ' ');
  } else if (spoken) {
    facts.email = spoken.email;
    rest = rest.replace(spoken.raw, ' ');
  }

  const phone = phoneIn(rest, opts.customerNumber ?? null);
  if (phone) {
    facts.phone = phone.e164;
    rest = rest.replace(phone.raw, ' ');
  } else if (opts.customerNumber && /\b(this|same|my whatsapp|current)\s+(number|no\.?|one)\b/i.test(rest)) {
    facts.phone = opts.customerNumber;
  }

  const name = nameIn(rest) ?? (opts.expecting === 'name' ? bareName(rest) : null);
  if (name) facts.name = name;

  const interest = interestIn(rest) ?? (opts.expecting === 'interest' && !email && !phone && !name ? bareInterest(rest) : null);
  if (interest) facts.interest = interest;
  return facts;
}

function spokenEmail(text: string): { email: string; raw: string } | null {
  const raw = SPOKEN_EMAIL.exec(text)?.[0];
  if (!raw) return null;
  const email = raw
    .replace(new RegExp(SPOKEN_AT, 'i'), '@')
    .replace(new RegExp(SPOKEN_DOT, 'gi'), '.')
    .toLowerCase();
  return new RegExp(`^${EMAIL.source}$`).test(email) ? { email, raw } : null;
}

function phoneIn(text: string, customerNumber: string | null): { e164: string; raw: string } | null {
  // A local number ("07911 123456") is read with the calling code of the customer's own WhatsApp number. The calling
  // code, not the country: a +44 7911 number belongs to Guernsey, whose rules would read "07912 345678" wrongly.
  const callingCode = customerNumber ? parsePhoneNumberFromString(customerNumber)?.countryCallingCode : undefined;
  const found = findPhoneNumbersInText(text, callingCode ? { defaultCallingCode: callingCode } : undefined)[0];
  if (found && found.number.isPossible()) return { e164: found.number.number, raw: text.slice(found.startsAt, found.endsAt) };
  // A number written with a leading 00 or without separators that findPhoneNumbersInText skipped.
  const loose = /(\+|00)?\d[\d ().-]{7,}\d/.exec(text)?.[0];
  if (!loose) return null;
  const parsed = parsePhoneNumberFromString(loose.replace(/^00/, '+'), { defaultCallingCode: callingCode });
  return parsed?.isPossible() ? { e164: parsed.number, raw: loose } : null;
}

function nameIn(text: string): string | null {
  const explicit = /\b(?:my name is|my name's|name is|name's|name:|call me|this is|it's|its)\s+([\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,2})/iu.exec(text);
  if (explicit && /\bname\b/i.test(explicit[0])) return properName(explicit[1]);
  if (explicit && /^\p{Lu}/u.test(explicit[1])) return properName(explicit[1]);
  const introduced = /\b(?:[Ii]'m|[Ii]’m|[Ii]m|[Ii] am)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)/u.exec(text);
  if (introduced && !NOT_NAMES.has(introduced[1].split(/\s+/)[0].toLowerCase())) return properName(introduced[1]);
  return null;
}

/** "Maria", "maria lopez", "It's Tom." when the agent asked for the name. */
function bareName(text: string): string | null {
  const words = text
    .replace(/^(hi|hey|hello|sure|ok|okay|yes|yeah|it's|its|i'm|im|i am)[,!.\s]+/i, '')
    .replace(/[.!,]+$/g, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > 3 || !words.every((w) => NAME_WORD.test(w))) return null;
  if (NOT_NAMES.has(words[0].toLowerCase())) return null;
  return properName(words.join(' '));
}

function properName(raw: string): string | null {
  const words = raw
    .trim()
    .split(/\s+/)
    .filter((w) => !['and', 'my', 'email', 'phone', 'number', 'i', 'im', "i'm"].includes(w.toLowerCase()));
  const kept: string[] = [];
  for (const w of words) {
    if (!NAME_WORD.test(w) || NOT_NAMES.has(w.toLowerCase())) break;
    kept.push(w);
  }
  if (kept.length === 0) return null;
  return kept.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

function interestIn(text: string): string | null {
  const m = /\b(?:interested in|interest is|looking for|looking into|enquiring about|inquiring about|asking about|want to know about|would like|i'd like|i want|i need|need a|need an|quote for|info on|information about|(?:me|us)(?: back)? about|interested)\s+(.+)/i.exec(
    text,
  );
  return m ? cleanInterest(m[1]) : null;
}

// Replies that answer nothing ("thx", "ok") must not become the interest.
const NOT_AN_ANSWER = /^\s*(thanks|thank you|thx|ty|cheers|ok|okay|k|yes|yeah|no|nope|hi|hello|hey|idk|dunno|not sure)[\s!.]*$/i;

function bareInterest(text: string): string | null {
  if (NOT_AN_ANSWER.test(text)) return null;
  const cleaned = cleanInterest(text.replace(/^(hi|hey|hello|sure|ok|okay|yes|yeah|well|mainly|mostly)[,!.\s]+/i, ''));
  return cleaned && cleaned.length >= 2 ? cleaned : null;
}

/** The interest up to where another fact or a new sentence starts. */
function cleanInterest(raw: string): string | null {
  const cut = raw.split(/[.!?\n;]|,\s*(?:my|and|i'm|i’m|im|i am|this is|name|email|phone|call|reach|contact|text|you)\b|,\s*,|\s+and\s+(?:my|i'm|i am)\b/i)[0];
  const cleaned = cut
    .replace(/^(a|an|the|some|in|on|about)\s+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > 0 && cleaned.length <= 200 ? cleaned : null;
}
