import type { Meaning } from '../knowledge/knowledge-match';
import type { Language } from '../knowledge/language';
import { asksQuestion } from '../knowledge/questions';
import { dot } from '../semantics/text-embedder';
import { ACKNOWLEDGED, GREETING_ONLY, THANKS, asksForPerson } from './engine-phrases';

/** What a message is when it is not a question for the knowledge, a booking or contact details. */
export type SmallTalk = 'person' | 'complaint' | 'thanks' | 'compliment' | 'greeting' | 'acknowledged';

// Said in the five languages (accent-folded, lower case). A complaint names a grievance; the engine apologises and
// passes it to a person rather than answering it with a passage.
const COMPLAINT =
  /\b(not happy|unhappy|unacceptable|ridiculous|disappointed|disappointing|terrible|awful|worst|rude|complain|complaint|refund me|never again|fed up|nobody (answers|answered|replies|replied|said|called)|no one (answers|answered|replies|replied)|third time|still (broken|not working|the same|making|hurts)|cabread[oa]|indignad[oa]|verguenza|queja|reclamacion|fatal|decepcionad[oa]|no estoy content[oa]|muy mal servicio|siguen? (sonando|igual|fallando)|desilusao|reclamacao|insatisfeit[oa]|pessim[oa]|nao estou (nada )?satisfeit[oa]|decepcionad[oa]|decu|decue|inadmissible|scandaleux|pas content|pas contente|plainte|reclamation|inacceptable|n'importe quoi|beschwerde|unzufrieden|enttauscht|frechheit|unmoglich|verargert|sauer|schlechter service)\b/;
// Praise with no question ("you guys are amazing", "¡sois geniales!", "vocês são ótimos", "super boulot", "toller Service").
const COMPLIMENT =
  /\b(amazing|awesome|great job|well done|love (it|him|her|them|you|the)|looks? (great|adorable|amazing|perfect|beautiful)|you guys rock|you('re| are) the best|geniales|sois (los )?mejores|que bien (quedo|quedado)|me encanta|maravillos[oa]|voces sao (otimos|demais|incriveis)|adorei|ficou (lindo|otimo|perfeito)|super boulot|genial|merveilleux|vous etes (geniaux|top|les meilleurs)|toller service|ihr seid (super|toll|klasse)|sieht (toll|super|klasse) aus|sehr zufrieden)\b/;
// Thanks anywhere in a short message ("awesome thank u so much!!", "show, valeu!", "genial, muchas gracias").
const THANKS_ANYWHERE = /\b(thanks|thank (you|u)|thx|ty|cheers|gracias|obrigad[oa]|valeu|brigad[oa]|merci|danke|dankeschon|vielen dank)\b/;
// A greeting, however spelled out ("heyyy", "hiii", "olá bom dia", "coucou", "moin moin").
const GREETING =
  /^(h+i+|he+y+|hel+o+|yo|hiya|howdy|good (morning|afternoon|evening)|morning|hola+|buenas( tardes| noches)?|buenos dias|ola+|oi+|bom dia|boa (tarde|noite)|bonjour|bonsoir|salut|coucou|hallo+|guten (morgen|tag|abend)|moin( moin)?|servus|gru(ss|ß) (gott|dich))( (there|all|guys|everyone|a todos|todos|pessoal|gente|tout le monde|zusammen|bom dia|boa tarde))?$/;

/** At most this many words: a longer message that thanks or greets says something else too. */
const SHORT = 8;

// What each kind of small talk sounds like, in English: the model places a message among them (issue 31: decided by
// meaning too). Questions for the knowledge are never small talk, so these stay far from them.
const EXAMPLES: Record<Exclude<SmallTalk, 'acknowledged'>, string[]> = {
  person: [
    'can I talk to a real person',
    'I want to speak to someone from your team',
    'put me through to a human please',
    'can I talk to the owner',
    'is there someone there I can talk to directly',
  ],
  complaint: [
    'I am very unhappy with your service',
    'this is unacceptable, I want to make a complaint',
    'I paid for the repair and the problem is still there',
    'nobody answered my messages, terrible service',
    'I am really disappointed with how I was treated',
  ],
  thanks: ['thank you so much', 'thanks a lot, that really helps', 'great, thanks!'],
  compliment: ['you guys are amazing', 'great job, I love how it turned out', 'your team did a wonderful job'],
  greeting: ['hi there', 'hello, good morning', 'hey!'],
};
/** How near a message must be to one kind's examples, and how much nearer than to any other kind. */
const NEAR = 0.62;
const CLEAR_OF_OTHERS = 0.05;

const words = (folded: string) => folded.split(/[^\p{L}\p{N}']+/u).filter(Boolean);
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const withoutEmoji = (text: string) => text.replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu, ' ');

/** The small talk a message is, by its words in any of the five languages, or by its meaning in the model's. */
export async function smallTalkOf(text: string, language: Language, meaning: Meaning | null): Promise<SmallTalk | null> {
  const folded = fold(withoutEmoji(text)).trim();
  const bare = folded.replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  const short = words(bare).length <= SHORT;
  const question = asksQuestion(text);
  if (asksForPerson(text)) return 'person';
  if (COMPLAINT.test(folded)) return 'complaint';
  if (!question && short && (THANKS.test(bare) || THANKS_ANYWHERE.test(bare))) return 'thanks';
  if (!question && COMPLIMENT.test(folded)) return 'compliment';
  if (bare === '' || GREETING.test(bare) || GREETING_ONLY.test(bare)) return 'greeting';
  if (!question && ACKNOWLEDGED.test(bare)) return 'acknowledged';
  return meaning && meaning.languages.includes(language) ? smallTalkByMeaning(text, question, meaning) : null;
}

let examples: Promise<{ kind: Exclude<SmallTalk, 'acknowledged'>; vector: Float32Array }[]> | null = null;

async function smallTalkByMeaning(text: string, question: boolean, meaning: Meaning): Promise<SmallTalk | null> {
  examples ??= (async () => {
    const entries = Object.entries(EXAMPLES).flatMap(([kind, texts]) => texts.map((t) => ({ kind: kind as Exclude<SmallTalk, 'acknowledged'>, text: t })));
    const vectors = await meaning.embedder.embed(entries.map((e) => e.text));
    return entries.map((e, i) => ({ kind: e.kind, vector: vectors[i] }));
  })().catch((err: unknown) => {
    examples = null;
    throw err;
  });
  const [vector] = await meaning.embedder.embed([text]);
  const best = new Map<SmallTalk, number>();
  for (const e of await examples) best.set(e.kind, Math.max(best.get(e.kind) ?? -1, dot(vector, e.vector)));
  const ranked = [...best].sort((a, b) => b[1] - a[1]);
  const [kind, score] = ranked[0];
  if (score < NEAR || score - (ranked[1]?.[1] ?? 0) < CLEAR_OF_OTHERS) return null;
  // A question is small talk only when it asks for a person or complains ("why has nobody called me back?").
  if (question && kind !== 'person' && kind !== 'complaint') return null;
  return kind;
}
