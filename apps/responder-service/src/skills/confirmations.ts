/**
 * The ordinary ways of saying yes and no, and of asking to cancel, in the five languages the engine speaks. Read
 * whatever the conversation's language: a Spanish speaker's "ok" and an English speaker's "sí" mean the same.
 */

/** Lower case, accents and punctuation gone, spaces collapsed: "¡Sí, claro!" → "si claro", "d'accord" → "d accord". */
export function plain(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}@+]+/gu, ' ')
    .trim();
}

const YES_WORDS = [
  // en
  'y', 'yes', 'yess', 'yesss', 'yea', 'yeah', 'yep', 'yup', 'ya', 'yas', 'sure', 'ok', 'okay', 'okey', 'k', 'kk', 'confirm', 'confirmed',
  'correct', 'perfect', 'great', 'fine', 'sounds good', 'that works', 'works for me', 'please do', 'go ahead', 'book it', 'do it',
  'deal', 'absolutely', 'definitely', 'of course', 'no problem', 'no worries', 'alright', 'all right', 'right', 'cool', 'lovely',
  'good', 'that s fine', 'thats fine', 'that s great', 'that s right', 'affirmative',
  // es
  'sip', 'claro', 'vale', 'va', 'dale', 'de acuerdo', 'perfecto', 'confirmo', 'confirmado', 'correcto', 'por supuesto',
  'esta bien', 'sale', 'genial', 'listo', 'por favor',
  // pt
  'sim', 'pode ser', 'pode', 'beleza', 'blz', 'certo', 'confirmado', 'perfeito', 'isso', 'isso mesmo', 'fechado', 'com certeza',
  'ta bom', 'ta otimo', 'otimo', 'show', 'bora', 'claro que sim',
  // fr
  'oui', 'ouais', 'ouai', 'd accord', 'dac', 'daccord', 'parfait', 'volontiers', 'confirme', 'je confirme', 'bien sur', 'ca marche',
  'c est bon', 'cest bon', 'entendu', 'carrement', 'tout a fait', 'exactement', 'super',
  // de
  'ja', 'jap', 'jo', 'joa', 'jawohl', 'klar', 'gerne', 'gern', 'passt', 'genau', 'bestatigt', 'bestatige', 'perfekt', 'in ordnung',
  'einverstanden', 'alles klar', 'naturlich', 'sicher', 'machen wir', 'gut', 'prima', 'ok passt',
];
const NO_WORDS = [
  // en
  'n', 'no', 'nope', 'nah', 'not really', 'don t', 'dont', 'do not', 'never mind', 'nevermind', 'no thanks', 'no thank you',
  'not now', 'not that', 'wrong',
  // es
  'no gracias', 'para nada', 'mejor no', 'todavia no', 'nop',
  // pt
  'nao', 'nao obrigado', 'nao obrigada', 'melhor nao', 'agora nao', 'nem',
  // fr
  'non', 'nan', 'non merci', 'pas vraiment', 'laisse tomber', 'pas maintenant',
  // de
  'nein', 'nee', 'ne', 'no', 'lieber nicht', 'doch nicht', 'nein danke', 'eher nicht',
];

/** Longest first, so "no problem" is read before "no". */
const byLength = (words: string[]) => [...new Set(words)].sort((a, b) => b.length - a.length);
const YES = byLength(YES_WORDS);
const NO = byLength(NO_WORDS);

/**
 * The phrase of `phrases` the message opens with ("yes confirm", "ja, passt", "sí claro"), or null. A one-letter one
 * ("y", "k", "n") only as the whole message: "y cuánto cuesta?" is Spanish for "and how much is it?".
 */
function opening(text: string, phrases: string[]): string | null {
  const t = plain(text);
  return phrases.find((p) => t === p || (p.length > 1 && t.startsWith(`${p} `))) ?? null;
}

/**
 * "si" is Spanish for both "yes" (unaccented, as people type it) and "if": a yes only alone, before a pause ("si, vale")
 * or before another yes ("si claro"); "sí" is always a yes.
 */
function siYes(text: string): boolean {
  if (/^\s*s[ií]\s*([,.!;)]|$)/iu.test(text) || /^\s*sí(?!\p{L})/iu.test(text)) return true;
  const t = plain(text);
  return t.startsWith('si ') && opening(t.slice(3), YES) !== null;
}

/** The message says yes: it opens with a yes and not with a no ("no problem" counts as yes; "yes but no" does not). */
export function isYes(text: string): boolean {
  if (siYes(text)) return true;
  const yes = opening(text, YES);
  if (!yes) return /^\s*(👍|👌|✅|🙏)/u.test(text);
  const no = opening(text, NO);
  return no === null || yes.length > no.length;
}

/** The message says no (and not a "no problem"). */
export function isNo(text: string): boolean {
  const no = opening(text, NO);
  if (!no) return /^\s*(👎|❌)/u.test(text);
  const yes = opening(text, YES);
  return yes === null || no.length > yes.length;
}

// "cancel my appointment", "cancelar mi cita", "desmarcar a consulta", "annuler mon rendez-vous", "Termin absagen".
const CANCEL =
  /\b(cancel+(ar|ed|led|ing|a|e|en|o)?|call (it )?off|can ?t make it|cannot make it|won ?t make it|no (puedo|podre|voy a poder) ir|nao (posso|vou poder) ir|je ne (peux|pourrai) pas venir|ich kann nicht kommen|anul(ar|e)|desmarcar|desmarque|annul(er|e|ez)|absagen|sage\s+(\S+\s+){0,3}ab|stornier\w*|canceln)\b/iu;

/** The customer asks to cancel (an appointment, or what the agent proposed). */
export function asksToCancel(text: string): boolean {
  return CANCEL.test(plain(text));
}
