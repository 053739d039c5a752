import { stemmer as englishStemmer } from '@orama/stemmers/english';
import { stemmer as frenchStemmer } from '@orama/stemmers/french';
import { stemmer as germanStemmer } from '@orama/stemmers/german';
import { stemmer as portugueseStemmer } from '@orama/stemmers/portuguese';
import { stemmer as spanishStemmer } from '@orama/stemmers/spanish';
import { stopwords as englishStopwords } from '@orama/stopwords/english';
import { stopwords as frenchStopwords } from '@orama/stopwords/french';
import { stopwords as germanStopwords } from '@orama/stopwords/german';
import { stopwords as portugueseStopwords } from '@orama/stopwords/portuguese';
import { stopwords as spanishStopwords } from '@orama/stopwords/spanish';
import { LANGUAGES, type Language } from './language';

/** Prefix of a term that is a concept word's own stem (weightless: it only orders passages that tie). */
export const EXACT = '=';

/** One term of an analysed text: a word stem, or a concept (`#price`) that several words of any language share. */
export interface Term {
  term: string;
  /** How much the term says about the topic: question words that hint at one ("where" → address) weigh half. */
  weight: number;
  /** The word it was read from (chat spelling written out), for a term read from one word. */
  word?: string;
}

const STEMMERS: Record<Language, (word: string) => string> = {
  en: englishStemmer,
  es: spanishStemmer,
  pt: portugueseStemmer,
  fr: frenchStemmer,
  de: germanStemmer,
};

// Chat spelling, written out before anything else ("wat r ur hrs" → "what are your hours").
const SLANG: Record<Language, Record<string, string>> = {
  en: {
    u: 'you', ur: 'your', r: 'are', wat: 'what', wen: 'when', wer: 'where', dem: 'them', wht: 'what', whats: 'what', hrs: 'hours', hr: 'hour', pls: 'please', plz: 'please',
    thx: 'thanks', ty: 'thanks', tmrw: 'tomorrow', tmr: 'tomorrow', appt: 'appointment', abt: 'about', ya: 'you', yall: 'you',
    wanna: 'want', gonna: 'going', cuz: 'because', bc: 'because', nite: 'night', ppl: 'people', mon: 'monday', tue: 'tuesday',
    tues: 'tuesday', wed: 'wednesday', thu: 'thursday', thur: 'thursday', thurs: 'thursday', fri: 'friday', sat: 'saturday',
    sun: 'sunday', wknd: 'weekend', info: 'information', ins: 'insurance', doc: 'doctor', hv: 'have', cn: 'can', bout: 'about',
  },
  es: { q: 'que', k: 'que', xq: 'porque', pq: 'porque', tb: 'también', tmb: 'también', hrs: 'horas', x: 'por', d: 'de', ud: 'usted', uds: 'ustedes', xfa: 'favor', porfa: 'favor' },
  pt: { vc: 'você', vcs: 'vocês', q: 'que', tb: 'também', hj: 'hoje', pq: 'porque', hrs: 'horas', td: 'tudo', obg: 'obrigado', n: 'não', tbm: 'também', pfv: 'favor', pf: 'favor' },
  fr: { stp: 'plaît', svp: 'plaît', resto: 'restaurant', restos: 'restaurants', pk: 'pourquoi', qd: 'quand', bcp: 'beaucoup', rdv: 'rendez-vous', hrs: 'heures', slt: 'salut', cc: 'coucou', tt: 'tout' },
  de: { hab: 'habe', nen: 'einen', ne: 'eine', std: 'stunden', hdl: 'danke', bzw: 'beziehungsweise' },
};

// Words customers use for a concept that would mislead in the tenant's text ("do you take Cigna" vs "takes 45 minutes").
const QUERY_SYNONYMS: Record<Language, Record<string, string>> = {
  en: { take: '#accept', takes: '#accept', taking: '#accept' },
  es: { cogen: '#accept', toman: '#accept' },
  pt: { pegam: '#accept' },
  fr: {},
  de: {},
};

// Words a chat is full of that name no topic, beyond each language's standard stop words.
const CHAT_STOPWORDS: Record<Language, string> = {
  en:
    'hi hello hey hiya yo thanks thank please ok okay guys guy folks ya like know want need get tell wondering wonder ask asking ' +
    'question questions also just really actually maybe pretty quite something anything anyone someone lot lots bit kind sort ' +
    'im ive id youre dont cant wont doesnt isnt arent thats whats theres hows much many well yes yeah yep sure good great ' +
    'please help would could able possible us let lets go going mean even still though else way things thing say said ' +
    'don doesn isn aren ll ve re today tonight now currently go goes went come comes came bring think thought offer offers confirm',
  es:
    'hola buenas buenos gracias favor quiero quisiera querría saber necesito puedo pueden puede podéis gustaría ok vale bueno ' +
    'chicos tienen tiene tenéis hay algo alguna alguno decir pregunta dudas duda posible hacer hacen hace hacéis mucho muy sale hoy ahora',
  pt:
    'oi olá ola obrigado obrigada favor quero queria gostaria saber preciso posso podem pode ok bom boa pessoal gente tem têm ' +
    'algo alguma algum dizer pergunta dúvida possível fazer fazem faz muito muita dá pra to tô tá sai hoje agora',
  fr:
    'bonjour salut coucou merci plaît plait voudrais veux aimerais savoir besoin peux pouvez peut ok bien alors question ' +
    'questions quelque chose dire est-ce estce possible faire faites fait font beaucoup aujourd hui maintenant',
  de:
    'hallo hi moin servus danke bitte möchte moechte will würde wuerde wissen brauche kann könnt koennt können ok gut also ' +
    'leute frage fragen etwas gibt mal habt hast haben hat habe machen macht mache machst möglich auch heute jetzt darf ' +
    'dürfen darfst muss müssen soll sollen eigentlich überhaupt denn halt eben',
};

/**
 * Concepts: words of any of the five languages that name one thing, searched as one term so that "hrs", "horario" and
 * "opening hours" meet, and a Spanish question can find an English answer's topic. Each word is stemmed with its language.
 */
const CONCEPTS: Record<string, Partial<Record<Language, string>>> = {
  '#price': {
    en: 'price prices cost costs costing fee fees charge charges expensive cheap pricing rate rates',
    es: 'precio precios costo costos coste cuesta cuestan tarifa tarifas caro barato cobran',
    pt: 'preço preços custo custos custa custam tarifa tarifas caro barato valor cobram',
    fr: 'prix coût coûts coûte coute coûtent tarif tarifs cher chère',
    de: 'preis preise kosten kostet gebühr gebühren teuer billig',
  },
  '#hours': {
    en: 'hour hours open opening opens close closing closes',
    es: 'horario horarios hora horas abren abre abrimos abierto abiertos abierta abrir cierran cierra cerramos cerrado',
    pt: 'horário horários hora horas abrem abre abrimos aberto abertos aberta abrir fecham fecha fechamos fechado funcionamento funcionam',
    fr: 'horaire horaires heure heures ouvert ouverts ouverte ouvertes ouvrez ouvre ouvrons ouverture ferme fermez fermons fermé fermée fermeture',
    de: 'öffnungszeit öffnungszeiten geöffnet offen öffnen öffnet schließen schließt geschlossen sprechzeiten sprechstunde uhrzeit',
  },
  '#insurance': {
    en: 'insurance insurer insurers insured coverage',
    es: 'seguro seguros aseguradora aseguradoras cobertura',
    pt: 'seguro seguros convênio convênios plano planos seguradora',
    fr: 'assurance assurances mutuelle mutuelles',
    de: 'versicherung versicherungen krankenkasse krankenkassen versichert kasse',
  },
  '#parking': {
    en: 'park parking',
    es: 'estacionamiento estacionar aparcamiento aparcar parqueadero',
    pt: 'estacionamento estacionar estaciono',
    fr: 'parking stationnement garer stationner',
    de: 'parkplatz parkplätze parken parkhaus',
  },
  '#address': {
    en: 'address location located directions street avenue road',
    es: 'dirección ubicación ubicados ubicada encuentran calle avenida plaza',
    pt: 'endereço localização localizados ficam fica rua avenida praça',
    fr: 'adresse situé située situés trouve trouvez rue avenue boulevard place',
    de: 'adresse standort befindet befinden straße strasse platz',
  },
  '#pay': {
    en: 'pay paying payment payments card cards cash credit debit',
    es: 'pagar pago pagos tarjeta tarjetas efectivo',
    pt: 'pagar pagamento pagamentos cartão cartões dinheiro pix',
    fr: 'payer paiement paiements carte cartes espèces',
    de: 'zahlen bezahlen zahlung karte kartenzahlung bar',
  },
  '#accept': {
    en: 'accept accepts accepted',
    es: 'aceptan aceptar aceptas aceptáis aceptamos trabajan trabajamos',
    pt: 'aceitam aceitar aceita aceitamos trabalham trabalhamos',
    fr: 'acceptez accepter acceptent acceptons prenez prenons',
    de: 'akzeptieren akzeptiert nehmen nimmt nehmt',
  },
  '#deliver': {
    en: 'deliver delivers delivery deliveries ship shipping',
    es: 'envío envíos entrega entregas domicilio',
    pt: 'entrega entregas entregam frete',
    fr: 'livraison livrez livrer',
    de: 'lieferung liefern liefert versand',
  },
  '#refund': {
    en: 'refund refunds return returns exchange',
    es: 'reembolso devolución devoluciones',
    pt: 'reembolso devolução troca',
    fr: 'remboursement rembourser retour',
    de: 'erstattung rückerstattung rückgabe umtausch',
  },
  '#treat': {
    en: 'treat treats treating treated see sees seeing seen',
    es: 'atender atienden atiende atendemos atendéis tratan tratamos',
    pt: 'atender atendem atende atendemos tratam tratamos',
    fr: 'soigner soignez soignent recevez recevoir',
    de: 'behandeln behandelt behandelst',
  },
  '#doctor': {
    en: 'doctor doctors dr dentist dentists physician physio physiotherapist therapist therapists',
    es: 'doctor doctora doctores dentista dentistas médico médica fisio fisioterapeuta',
    pt: 'doutor doutora dentista dentistas médico médica fisioterapeuta',
    fr: 'docteur dentiste dentistes médecin kiné kinésithérapeute',
    de: 'arzt ärztin zahnarzt zahnärztin doktor therapeut therapeutin physiotherapeut',
  },
  '#broken': {
    en: 'broken broke chipped chip cracked crack',
    es: 'roto rota rompí partido partida astillado',
    pt: 'quebrado quebrada quebrou lascado trincado',
    fr: 'cassé cassée ébréché fêlé',
    de: 'abgebrochen gebrochen kaputt angebrochen',
  },
  '#discount': {
    en: 'discount discounts discounted reduced reduction concession concessions',
    es: 'descuento descuentos rebaja',
    pt: 'desconto descontos',
    fr: 'réduction réductions remise',
    de: 'rabatt rabatte ermäßigung ermäßigt',
  },
  '#late': {
    en: 'late later',
    pt: 'atraso atrasado',
    fr: 'tard retard',
    de: 'spät später kurzfristig',
  },
  '#child': {
    en: 'kid kids child children',
    es: 'niño niños niña niñas hijo hijos pequeño pequeños pequeña pequeñas peques',
    pt: 'criança crianças filho filhos pequeno pequenos',
    fr: 'enfant enfants',
    de: 'kind kinder',
  },
  '#emergency': {
    en: 'emergency emergencies urgent',
    es: 'urgencia urgencias emergencia',
    pt: 'urgência urgências emergência',
    fr: 'urgence urgences',
    de: 'notfall notfälle dringend',
  },
  // Days: "are you open on Saturdays?" is answered by "Monday to Friday…" as well as by "Saturdays 9-1".
  '#day': {
    en: 'monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays sunday sundays weekend weekends weekday weekdays',
    es: 'lunes martes miércoles jueves viernes sábado sábados domingo domingos finde',
    pt: 'segunda terça quarta quinta sexta sábado sábados domingo domingos',
    fr: 'lundi mardi mercredi jeudi vendredi samedi samedis dimanche dimanches weekend',
    de: 'montag montags dienstag dienstags mittwoch mittwochs donnerstag donnerstags freitag freitags samstag samstags sonntag sonntags wochenende',
  },
  '#pain': {
    en: 'pain painful hurt hurts hurting ache aching toothache',
    es: 'dolor duele duelen dolores',
    pt: 'dor dói doendo dores',
    fr: 'douleur douleurs mal',
    de: 'schmerz schmerzen weh',
  },
  '#tooth': {
    en: 'tooth teeth molar molars',
    es: 'diente dientes muela muelas',
    pt: 'dente dentes',
    fr: 'dent dents',
    de: 'zahn zähne',
  },
};

// Phrases whose words are stop words but whose meaning is not; the weight says how sure the hint is. An empty concept
// drops the phrase: "how long" asks for a duration whatever follows, it names no topic.
const PHRASES: Record<Language, [RegExp, string, number][]> = {
  en: [
    [/\bhow much\b/g, '#price', 1],
    [/\bhow long\b/g, '', 0],
    [/\bwhere\b/g, '#address', 0.5],
    [/\bwhat time\b/g, '#hours', 1],
    [/\bwhen\b/g, '#hours', 0.5],
    [/\b(last[- ]minute|short notice)\b/g, '#late', 1],
    [/\d+\s?% off\b/g, '#discount', 1],
    [/\bwork with\b/g, '#accept', 1],
  ],
  es: [
    [/\bcu[aá]nto tiempo\b/g, '', 0],
    [/\bcu[aá]nto\b/g, '#price', 1],
    [/\bd[oó]nde\b/g, '#address', 0.5],
    [/\bqu[eé] hora\b/g, '#hours', 1],
    [/\bcu[aá]ndo\b/g, '#hours', 0.5],
    [/\b[uú]ltima hora\b/g, '#late', 1],
    [/\d+\s?% de descuento\b/g, '#discount', 1],
  ],
  pt: [
    [/\bquanto tempo\b/g, '', 0],
    [/\bquanto\b/g, '#price', 1],
    [/\bonde\b/g, '#address', 0.5],
    [/\bque horas?\b/g, '#hours', 1],
    [/\bquando\b/g, '#hours', 0.5],
    [/\b[uú]ltima hora\b/g, '#late', 1],
    [/\d+\s?% de desconto\b/g, '#discount', 1],
  ],
  fr: [
    [/\bcombien de temps\b/g, '', 0],
    [/\bcombien\b/g, '#price', 1],
    [/(^|\s)où(\s|$)/g, '#address', 0.5],
    [/\bquelle heure\b/g, '#hours', 1],
    [/\bquand\b/g, '#hours', 0.5],
    [/\bderni[eè]re minute\b/g, '#late', 1],
    [/\d+\s?% de (r[ée]duction|remise)\b/g, '#discount', 1],
    [/\btravaill(ez|ons) avec\b/g, '#accept', 1],
  ],
  de: [
    [/\bwie ?viel\b/g, '#price', 1],
    [/\bwo\b/g, '#address', 0.5],
    [/\bwie lange\b/g, '', 0],
    [/\bwann\b/g, '#hours', 0.5],
    [/\d+\s?% rabatt\b/g, '#discount', 1],
    [/\barbeite[nt] (ihr |sie |wir )?mit\b/g, '#accept', 1],
  ],
};

/** Lower case without accents: what customers type ("cuanto", "horario") meets what tenants write ("cuánto"). */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Words of a lower-cased text; apostrophes and hyphens split ("l'adresse", "Mon-Fri"), a hyphenated word also joined
 * ("X-rays" is "xrays" as customers write it); one letter is no word.
 */
function words(lower: string): string[] {
  const joined = [...lower.matchAll(/\p{L}+(?:-\p{L}+)+/gu)].map((m) => m[0].replace(/-/g, ''));
  return [...lower.split(/[^\p{L}\p{N}]+/u), ...joined].filter((w) => w.length > 1 || /\p{N}/u.test(w) || SLANG_LETTERS.has(w));
}

// One-letter words chat spelling gives a meaning to ("u", "r", "q").
const SLANG_LETTERS = new Set(LANGUAGES.flatMap((l) => Object.keys(SLANG[l]).filter((w) => w.length === 1)));

const STOPWORDS: Record<Language, Set<string>> = Object.fromEntries(
  LANGUAGES.map((l) => {
    const standard = { en: englishStopwords, es: spanishStopwords, pt: portugueseStopwords, fr: frenchStopwords, de: germanStopwords }[l];
    const all = [...standard, ...CHAT_STOPWORDS[l].split(' ')];
    return [l, new Set([...all, ...all.map(fold)])];
  }),
) as Record<Language, Set<string>>;

/** A word's entry in a word list, never an Object.prototype member ("constructor", "toString"). */
const own = (words: Record<string, string>, word: string): string | undefined => (Object.hasOwn(words, word) ? words[word] : undefined);

// Spanish speakers often drop the accent of the vosotros endings ("pasais", "teneis"), which the stemmer then misses.
const restoreAccents = (word: string, language: Language) => (language === 'es' ? word.replace(/([^aeiouáéíóú])(a|e)is$/u, (_, c: string, v: string) => `${c}${v === 'a' ? 'á' : 'é'}is`) : word);

const stemOf = (word: string, language: Language) => fold(STEMMERS[language](restoreAccents(word, language)));

// Keyed by the raw word and by its stem in its own language ("costs", "cost").
const CONCEPT_OF = new Map<string, string>();
const CONCEPT_STEMS: Record<Language, Map<string, string>> = Object.fromEntries(LANGUAGES.map((l) => [l, new Map()])) as Record<Language, Map<string, string>>;
for (const [concept, byLanguage] of Object.entries(CONCEPTS)) {
  for (const language of LANGUAGES) {
    for (const word of (byLanguage[language] ?? '').split(' ').filter(Boolean)) {
      CONCEPT_OF.set(word, concept);
      CONCEPT_OF.set(fold(word), concept);
      CONCEPT_STEMS[language].set(stemOf(word, language), concept);
    }
  }
}

/**
 * The terms of a text in one language: chat spelling written out, stop words dropped, each word stemmed with that
 * language's Snowball stemmer and folded (no accents), concepts and phrase hints in place of their words.
 */
export function analyze(text: string, language: Language, options: { query?: boolean; stemLanguage?: Language } = {}): Term[] {
  // A question read against knowledge in another language: its own stop words and phrases, the knowledge's stems
  // ("Sanitas" stems alike in the Spanish FAQ and the English question).
  const stemLanguage = options.stemLanguage ?? language;
  let lower = ` ${text.toLowerCase()} `;
  const terms: Term[] = [];
  for (const [phrase, concept, weight] of PHRASES[language]) {
    lower = lower.replace(phrase, () => {
      if (concept) terms.push({ term: concept, weight });
      return ' ';
    });
  }
  for (const raw of words(lower)) {
    const word = own(SLANG[language], raw) ?? raw;
    if (word.length < 2 && !/\p{N}/u.test(word)) continue;
    // A concept word counts even where a stop word list has it (Spanish lists "trabajan", "tiempo").
    const named = (options.query ? own(QUERY_SYNONYMS[language], word) : undefined) ?? CONCEPT_OF.get(word) ?? CONCEPT_OF.get(fold(word));
    if (!named && (STOPWORDS[language].has(word) || STOPWORDS[language].has(fold(word)))) continue;
    const stem = stemOf(word, stemLanguage);
    const concept = named ?? conceptOfStem(stem, stemLanguage);
    // A number in a question is mostly a quantity ("for 30 people", "my son is 5"), seldom its topic.
    terms.push({ term: concept ?? stem, weight: options.query && /^\d+$/.test(stem) ? 0.5 : 1, word });
    // The word itself too, weightless: between passages that cover a question equally, the one using its very words
    // ranks first ("open on Monday?": "closed on Monday" before "open Tuesday to Sunday").
    if (concept) terms.push({ term: `${EXACT}${stem}`, weight: 0 });
  }
  // A time of day ("9am", "19h30", "8 bis 20 Uhr", "9-5") is about opening hours however the sentence says it.
  if (TIME.test(lower) || TIME_RANGE.test(lower)) terms.push({ term: '#hours', weight: 1 });
  // An amount of money ("$65", "35 €", "R$ 900", "4,50 euros") states a price however the sentence says it.
  if (!options.query && MONEY.test(lower)) terms.push({ term: '#price', weight: 1 });
  return terms;
}

const MONEY = /[$€£]\s?\d|\d\s?(?:[$€£]|(?:eur|euros?|dollars?|usd|reais|brl|chf|gbp)\b)/iu;

const TIME = /\b\d{1,2}(?::\d{2}\s*(?:h|uhr|am|pm)?|[.:]\d{2}\s*(?:h|uhr|am|pm)|\s?(?:am|pm|uhr)|h\d{0,2})(?![\p{L}\d])/iu;
const TIME_RANGE = /(?<![\d.,:$€£-])\b\d{1,2}\s?[-–]\s?\d{1,2}\b(?![.,:]?\d)/u;

const conceptsByPrefix = new Map<string, string | null>();

/**
 * The concept of a stem, also when the stemmer left an inflection on it ("acceptons" → "accepton", a form of "accept"):
 * a concept stem of five letters or more that the stem starts with, at most three letters longer.
 */
function conceptOfStem(stem: string, language: Language): string | undefined {
  const exact = CONCEPT_STEMS[language].get(stem);
  if (exact) return exact;
  const key = `${language}:${stem}`;
  let concept = conceptsByPrefix.get(key);
  if (concept === undefined) {
    concept = null;
    for (const [conceptStem, c] of CONCEPT_STEMS[language]) {
      if (conceptStem.length >= 5 && stem.length - conceptStem.length <= 3 && stem.startsWith(conceptStem)) concept = c;
    }
    if (conceptsByPrefix.size >= MAX_REMEMBERED) conceptsByPrefix.delete(conceptsByPrefix.keys().next().value!);
    conceptsByPrefix.set(key, concept);
  }
  return concept ?? undefined;
}

// Each language's concept words and stems, for closeConcept(); a word's answer is remembered (bounded).
const CONCEPT_SPELLINGS: Record<Language, [string, string][]> = Object.fromEntries(
  LANGUAGES.map((l) => {
    const words = Object.entries(CONCEPTS).flatMap(([concept, byLanguage]) =>
      (byLanguage[l] ?? '').split(' ').flatMap((w) => [[fold(w), concept] as [string, string], [stemOf(w, l), concept] as [string, string]]),
    );
    return [l, [...new Map(words.filter(([spelling]) => spelling.length >= 5)).entries()]];
  }),
) as Record<Language, [string, string][]>;
const closeConcepts = new Map<string, string | null>();
const MAX_REMEMBERED = 10_000;

/**
 * The concept a misspelt word or stem of `language` ("insurence", "parkng", "delivry") is one edit from (two for long
 * words); like typos, it keeps the first letter.
 */
export function closeConcept(word: string, language: Language): string | null {
  if (word.length < 5) return null;
  const key = `${language}:${word}`;
  const remembered = closeConcepts.get(key);
  if (remembered !== undefined) return remembered;
  const maxEdits = word.length >= 8 ? 2 : 1;
  let close: string | null = null;
  for (const [spelling, concept] of CONCEPT_SPELLINGS[language]) {
    if (spelling[0] === word[0] && Math.abs(spelling.length - word.length) <= maxEdits && editDistance(spelling, word, maxEdits) <= maxEdits) {
      close = concept;
      break;
    }
  }
  if (closeConcepts.size >= MAX_REMEMBERED) closeConcepts.delete(closeConcepts.keys().next().value!);
  closeConcepts.set(key, close);
  return close;
}

/** Edit distance counting a swap of neighbours as one edit (the commonest typo); stops early once past `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      rowMin = Math.min(rowMin, d[i][j]);
    }
    if (rowMin > limit) return rowMin;
  }
  return d[a.length][b.length];
}
