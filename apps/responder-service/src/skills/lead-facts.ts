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
// Words that follow "I'm" ("soy", "sou", "je suis", "ich bin") without being a name ("I'm interested", "soy nueva").
const NOT_NAMES = new Set(
  (
    'interested looking not just good fine ok okay here wondering trying hoping calling writing asking after sorry new back ' +
    'available free busy a an the in on at from with so very really also still actually planning thinking going keen ' +
    'after sure happy glad customer client patient ' +
    'interesado interesada nuevo nueva cliente paciente de del un una el la muy buscando aqui aquí ' +
    'interessado interessada novo nova o um uma da do muito procurando aqui ' +
    'intéressé intéressée interesse nouveau nouvelle patiente un une le la très en à ici ' +
    'interessiert neu neue neuer kunde kundin patient patientin ein eine der die das sehr auf hier gerade'
  ).split(' '),
);
// Words that end a name: "I'm Maria and ...", "me llamo Ana y ...", "je m'appelle Luc et ...".
const NAME_STOPS = new Set(
  'and my email phone number i im i\'m y mi e meu minha et mon ma und mein meine from aus here aqui ici hier'.split(' '),
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

// "my name is", "call me", "me llamo", "meu nome é", "je m'appelle", "ich heiße": a name follows, whatever its case.
const NAME_SAID = String.raw`my name is|my name's|my names|name is|name's|name:|call me|me llamo|mi nombre es|ll[aá]mame|meu nome [eé]|me chamo|chamo-me|pode me chamar de|je m['’ ]?appelle|mon nom est|mon nom c['’]est|moi c['’]est|appelez-moi|ich hei(?:ß|ss)e|mein name ist|mein name lautet|nennen sie mich`;
const EXPLICIT = new RegExp(String.raw`(?:^|[^\p{L}])(?:${NAME_SAID})\s+([\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,2})`, 'iu');
// "this is Tom", "it's Maria": a name only when capitalised.
const PRESENTED = /(?:^|[^\p{L}])(?:[Tt]his is|[Ii]t's|[Ii]ts|[Ii]t’s|[Cc]'est|[Cc]’est)\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,2})/u;
// "Petra Schulz hier", "Ana Ruiz aquí", "Tom here": a capitalised name, then "here", opening the message or a sentence.
const HERE = /(?:^|[.!,]\s*|\b(?:hi|hello|hey|hola|ol[aá]|oi|bonjour|hallo|guten tag|moin)[,!]?\s+)(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)\s+(?:here|hier|aqu[ií]|aqui|ici)\b/iu;
// "I'm Maria", "soy Ana", "sou o João", "je suis Luc", "ich bin Jonas", "hier ist Jonas": only when capitalised.
const INTRODUCED =
  /(?:^|[^\p{L}])(?:[Ii]'m|[Ii]’m|[Ii]m|[Ii] am|[Ss]oy|[Ss]ou(?: [oa])?|[Ee]u sou(?: [oa])?|[Jj]e suis|[Ii]ch bin|[Hh]ier ist)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)/u;

function nameIn(text: string): string | null {
  const explicit = EXPLICIT.exec(text);
  if (explicit) return properName(explicit[1]);
  const presented = PRESENTED.exec(text);
  if (presented) return properName(presented[1]);
  const here = HERE.exec(text);
  if (here && /^\p{Lu}/u.test(here[1]) && !NOT_NAMES.has(here[1].split(/\s+/)[0].toLowerCase())) return properName(here[1]);
  const introduced = INTRODUCED.exec(text);
  if (introduced && !NOT_NAMES.has(introduced[1].split(/\s+/)[0].toLowerCase())) return properName(introduced[1]);
  return null;
}

/** The message states a name ("I'm Maria", "me llamo Ana"), without having been asked for it. */
export function statesName(text: string): boolean {
  return nameIn(text) !== null;
}

/** "Maria", "maria lopez", "It's Tom." when the agent asked for the name. */
function bareName(text: string): string | null {
  const words = text
    .replace(/^(hi|hey|hello|hola|ol[aá]|oi|bonjour|salut|hallo|sure|ok|okay|yes|yeah|s[ií]|sim|oui|ja|claro)[,!.\s]+/iu, '')
    .replace(/^(it's|its|i'm|im|i am|soy|sou|eu sou|je suis|moi c'est|c'est|ich bin|hier ist)\s+/iu, '')
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
    .filter((w) => !['email', 'phone', 'number'].includes(w.toLowerCase()));
  const kept: string[] = [];
  for (const w of words) {
    if (!NAME_WORD.test(w) || NOT_NAMES.has(w.toLowerCase()) || NAME_STOPS.has(w.toLowerCase())) break;
    kept.push(w);
  }
  if (kept.length === 0) return null;
  return kept.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

// What introduces an interest, most specific first, in the five languages.
// What introduces an interest in the five languages: the specific phrases first ("i'd like to know more about
// whitening" is about whitening, "quiero información sobre implantes" about implants), then the generic ones.
const INTEREST_SAID = [
  String.raw`(?:know|learn|hear|find out) more about|more (?:info|information|details) (?:about|on)|interested in|interest is|looking for|looking into|enquiring about|inquiring about|asking about|want to know about|info on|info about|information about|information on|details (?:about|on)|quote for|prices? (?:for|of)|(?:me|us)(?: back)? about`,
  String.raw`saber m[aá]s (?:sobre|de|acerca de)|informaci[oó]n (?:sobre|de)|info (?:sobre|de)|me interesan?|interesad[oa] en|presupuesto (?:para|de)|precio de`,
  String.raw`saber mais (?:sobre|de)|informa[cç][oõ]es (?:sobre|de)|tenho interesse em|interessad[oa] (?:em|no|na)|or[cç]amento (?:para|de)|pre[cç]o de`,
  String.raw`en savoir plus sur|(?:des )?informations sur|int[eé]ress[eé]e? par|devis pour|prix d[eu]`,
  String.raw`interessiere mich f[uü]r|interesse an|mehr (?:[uü]ber|zu)|informationen (?:[uü]ber|zu)|infos (?:[uü]ber|zu)|angebot f[uü]r`,
  String.raw`would like|i'd like|id like|i want|i need|need a|need an|interested`,
  String.raw`quisiera|quiero|necesito|busco|gostaria de|quero|preciso de|procuro|je voudrais|j['’]aimerais|je veux|je cherche|besoin d['’]un|besoin d['’]une|besoin de|ich m[oö]chte|ich h[aä]tte gern(?:e)?|ich brauche|ich suche`,
];
const INTEREST = INTEREST_SAID.map((said) => new RegExp(String.raw`(?:^|[^\p{L}])(?:${said})\s+(.+)`, 'iu'));

function interestIn(text: string): string | null {
  // The most specific phrase wins: "i'd like to know more about whitening" is about whitening.
  for (const re of INTEREST) {
    const m = re.exec(text);
    if (m) return cleanInterest(m[1]);
  }
  return null;
}

// Replies that answer nothing ("thx", "ok") must not become the interest.
const NOT_AN_ANSWER =
  /^\s*(thanks|thank you|thx|ty|cheers|ok|okay|k|yes|yeah|no|nope|hi|hello|hey|idk|dunno|not sure|gracias|s[ií]|hola|no s[eé]|obrigad[oa]|sim|n[aã]o|oi|ol[aá]|n[aã]o sei|merci|oui|non|bonjour|salut|je ne sais pas|danke|ja|nein|hallo|wei(?:ß|ss) nicht)[\s!.]*$/iu;

function bareInterest(text: string): string | null {
  if (NOT_AN_ANSWER.test(text)) return null;
  const cleaned = cleanInterest(text.replace(/^(hi|hey|hello|sure|ok|okay|yes|yeah|well|mainly|mostly|s[ií]|claro|pues|sim|bom|oui|alors|ja|also)[,!.\s]+/iu, ''));
  return cleaned && cleaned.length >= 2 ? cleaned : null;
}

// Openings that say nothing about the interest itself: "to know more about", "saber más sobre", "mehr über".
const INTEREST_OPENING =
  /^(?:to (?:know|learn|hear|find out|ask|get|have|book|see) (?:more )?(?:about |on )?|more (?:about|on) |a |an |the |some |in |on |about |sobre |de |acerca de |el |la |los |las |un |una |o |os |as |um |uma |le |les |des |du |un |une |[uü]ber |zu |f[uü]r |einen |eine |ein |den |die |das |mehr [uü]ber |saber m[aá]s (?:sobre |de )?|saber mais (?:sobre )?|en savoir plus sur )/iu;
// Trailing words of a request: "... erfahren", "... please".
const INTEREST_TAIL = /\s+(?:erfahren|wissen|bitte|please|pls|por favor|s'il vous pla[iî]t|svp)$/iu;

/** The interest up to where another fact or a new sentence starts. */
function cleanInterest(raw: string): string | null {
  const cut = raw.split(
    /[.!?\n;]|,\s*(?:my|and|i'm|i’m|im|i am|this is|name|email|phone|call|reach|contact|text|you|mi|meu|minha|mon|ma|mein|meine)\b|,\s*,|\s+(?:and|y|e|et|und)\s+(?:my|i'm|i am|mi|me llamo|meu|minha|mon|je|mein|ich)\b/i,
  )[0];
  let cleaned = cut.replace(/\s+/g, ' ').trim();
  for (let previous = ''; previous !== cleaned; ) {
    previous = cleaned;
    cleaned = cleaned.replace(INTEREST_OPENING, '').replace(INTEREST_TAIL, '').trim();
  }
  return cleaned.length > 0 && cleaned.length <= 200 ? cleaned : null;
}
