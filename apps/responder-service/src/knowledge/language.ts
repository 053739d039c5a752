import { LANGUAGES, type Language } from '@parley/contracts';
import { detectAll } from 'tinyld';

// The languages the engine answers in are the API's (a reply's `language`): re-exported for the engine's modules.
export { LANGUAGES, type Language };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

// Short chat messages defeat a character n-gram model ("wat r ur hrs" reads as German to it): the commonest function
// words, greetings and chat words of each language are the other half of the evidence. Only words that are not also
// ordinary words of another of the five languages.
const MARKERS: Record<Language, string[]> = {
  en: (
    'the you your ur u what wat whats is are r do does how can could i im my me hi hello hey thanks thank thx please pls plz ' +
    'want need would like open when where which who have has of to and it this that with yes yeah yep nope speak talk someone ' +
    'guys much many much about get will there'
  ).split(' '),
  es: (
    'hola quiero gracias qué cómo cuánto cuanto cuándo cuando dónde donde usted ustedes tienen tiene puedo puede hablar ' +
    'persona el los las una sí están estan horario buenos buenas días dias necesito cita hay hacen abren ' +
    'cuesta precio vale mañana manana y del al mi con alguien atienden aceptan seguro muy mucho tengo quería queria hacen ' +
    'pueden podéis podeis tenéis teneis hacéis haceis sois estáis estais abrís abris pasáis pasais guardáis guardais ' +
    'reparáis reparais cobráis cobrais aceptáis aceptais usted nosotros vosotros os coche también tambien pero'
  ).split(' '),
  pt: (
    'olá ola oi obrigado obrigada você voce vocês voces vc vcs não nao quero falar pessoa uma um qual quanto quando onde tem ' +
    'têm estão bom dia boa tarde noite preciso consulta é e na nos nas ao meu minha com alguém alguem atendem ' +
    'aceitam custa preço amanhã amanha abrem fazem sim obg posso pode podem pra tá tô to dá faz muito muita tudo ' +
    'gostaria vocês têm ter'
  ).split(' '),
  fr: (
    'bonjour salut merci vous je j est-ce quel quelle quels quelles combien où avez êtes etes pouvez parler personne le les ' +
    'des une pour avec oui rendez-vous est et au mon ma quelqu ouvert ouverts ouvrez acceptez coûte coute prix ' +
    'demain s il plaît plait svp stp faites peux voudrais c est-ce qu nous sont vos votre'
  ).split(' '),
  de: (
    'hallo danke bitte ich sie ihr wie wann wo haben habt können konnen kann sprechen mit einem einer einen menschen ja nein ' +
    'der die das und ist guten tag termin ein eine nicht mein meine jemandem jemand mitarbeiter geöffnet geoffnet offen kostet ' +
    'preis morgen nehmen akzeptieren gibt euch moin servus du bei möchte auch noch schon habe hat wir ihnen'
  ).split(' '),
};
const MARKER_SETS = Object.fromEntries(LANGUAGES.map((l) => [l, new Set(MARKERS[l])])) as Record<Language, Set<string>>;

// Letters that only some of the five write.
const LETTERS: [RegExp, Language[]][] = [
  [/[ñ¿¡]/u, ['es']],
  [/[ãõ]/u, ['pt']],
  [/[ßäöü]/u, ['de']],
  [/[èêëîïœùû]/u, ['fr']],
  [/ç/u, ['pt', 'fr']],
];

// What is written the same in every language: email addresses, web addresses, and any token with a digit in it (phone
// numbers, times, prices, dates). Their letters ("maria.lopez@gmail.com") would otherwise read as some language.
const LANGUAGE_NEUTRAL = /\S+@\S+|\b(?:https?:\/\/|www\.)\S+|\S+\.(?:com|org|net|io|es|pt|br|fr|de|mx|co|uk)\b\S*|\S*\d\S*/giu;

/** How much one marker word weighs against the n-gram model's share (0..1). */
const MARKER_WEIGHT = 0.4;
/** Evidence below this keeps the conversation's language: "ok", "10:30" or a name say nothing about it. */
const MIN_EVIDENCE = 0.4;
/** Another language must beat the conversation's one by this much to switch it. */
const SWITCH_MARGIN = 0.4;

/**
 * The language a customer's message is written in, among the five the engine speaks. Short or ambiguous text keeps the
 * conversation's previous language (default English): a customer does not switch language by writing "ok" or "Tuesday",
 * nor by a message that is only an email address, a link, a phone number or a time.
 */
export function detectLanguage(text: string, previous?: Language | null): Language {
  const fallback = previous ?? 'en';
  const wording = text.replace(LANGUAGE_NEUTRAL, ' ');
  const lower = wording.toLowerCase();
  const words = lower.split(/[^\p{L}'-]+/u).filter(Boolean);
  if (words.length === 0) return fallback;

  const score: Record<Language, number> = { en: 0, es: 0, pt: 0, fr: 0, de: 0 };
  // The n-gram model needs a few words; on two it counts half ("Maria Lopez" must not switch a conversation).
  const ngramWeight = words.length >= 3 ? 1 : words.length === 2 ? 0.5 : 0;
  if (ngramWeight > 0) for (const { lang, accuracy } of detectAll(wording, { only: [...LANGUAGES] })) score[lang as Language] += ngramWeight * accuracy;
  for (const word of words) for (const lang of LANGUAGES) if (MARKER_SETS[lang].has(word)) score[lang] += MARKER_WEIGHT;
  for (const [letters, langs] of LETTERS) if (letters.test(lower)) for (const lang of langs) score[lang] += MARKER_WEIGHT / langs.length;

  const [best, bestScore] = (Object.entries(score) as [Language, number][]).sort((a, b) => b[1] - a[1])[0];
  if (bestScore < MIN_EVIDENCE) return fallback;
  if (previous && best !== previous && bestScore - score[previous] < SWITCH_MARGIN) return previous;
  return best;
}
