import type { Language } from '../knowledge/language';

/** What a customer's message asks of the tenant's marketing (CONTRACT.md §12). */
export type OptChange = 'opted_out' | 'opted_in';

export interface OptRequest {
  change: OptChange;
  /** The keyword as matched (upper case, unaccented), e.g. `BAJA`. */
  keyword: string;
  /** The languages the keyword belongs to, the usual one first: a conversation held in one of them keeps its language. */
  languages: readonly Language[];
}

const ALL: readonly Language[] = ['en', 'es', 'pt', 'fr', 'de'];

/** Whole-message keywords. STOP and START are understood in every language (carriers and WhatsApp use them everywhere). */
const KEYWORDS: Record<string, { change: OptChange; languages: readonly Language[] }> = {
  STOP: { change: 'opted_out', languages: ALL },
  UNSUBSCRIBE: { change: 'opted_out', languages: ['en'] },
  BAJA: { change: 'opted_out', languages: ['es'] },
  PARAR: { change: 'opted_out', languages: ['pt', 'es'] },
  ARRET: { change: 'opted_out', languages: ['fr'] },
  STOPP: { change: 'opted_out', languages: ['de'] },
  START: { change: 'opted_in', languages: ALL },
  UNSTOP: { change: 'opted_in', languages: ['en'] },
  SUBSCRIBE: { change: 'opted_in', languages: ['en'] },
  ALTA: { change: 'opted_in', languages: ['es'] },
  REANUDAR: { change: 'opted_in', languages: ['es'] },
  VOLTAR: { change: 'opted_in', languages: ['pt'] },
  RETOMAR: { change: 'opted_in', languages: ['pt', 'es'] },
  REPRENDRE: { change: 'opted_in', languages: ['fr'] },
  ANMELDEN: { change: 'opted_in', languages: ['de'] },
};

/**
 * Asking in so many words, in a short message ("stop sending me messages", "dame de baja", "não quero mais receber
 * mensagens", "ne m'envoyez plus rien", "keine Werbung mehr bitte"): the messages or marketing named, so that "please stop
 * calling me at work" stays an ordinary message. Read lower case and without accents.
 */
const PHRASES: { pattern: RegExp; change: OptChange; languages: readonly Language[] }[] = [
  { change: 'opted_out', languages: ['en'], pattern: /\b(stop (sending|texting|messaging|spamming)( me| us)?|unsubscribe me|opt (me )?out|no more (messages|texts|promos?|promotions|marketing|spam)|(remove|take) me (off|from) (your|the) (list|mailing list)|(don ?t|do not|dont) (send|text|message) me (anything|any more|anymore|again))\b/ },
  { change: 'opted_out', languages: ['es'], pattern: /\b(da(me|dme|rme)? de baja|no (me )?(mand|envi)(es|eis|en|ais) mas|no quiero (recibir )?mas (mensajes|promociones|publicidad)|dej(a|ad|en) de (mandar|enviar)me|borra(me|dme) de (la|vuestra|tu) lista)\b/ },
  { change: 'opted_out', languages: ['pt'], pattern: /\b(nao quero (receber )?mais (mensagens|promocoes|publicidade)|param? de (me )?(mandar|enviar)|descadastr(ar|e|a)( me)?|tir(a|em|e)( me| -me)? da (lista|sua lista)|sair da lista|nao me (mandem|enviem) mais)\b/ },
  { change: 'opted_out', languages: ['fr'], pattern: /\b(ne m ?(envoyez|envoie) plus|arretez de m ?envoyer|desabonn(er|ez|e)( moi)?|desinscri(re|vez|s)( moi)?|(plus|pas) de (messages|pub|publicite|promos?) (svp|merci|s il vous plait)|retirez( |-)moi de (la|votre) liste)\b/ },
  { change: 'opted_out', languages: ['de'], pattern: /\b(keine (nachrichten|werbung|sms|mails?|newsletter) mehr|(bitte )?abmelden|hort auf (mir )?zu schreiben|schreibt mir nicht mehr|(trag|tragt|tragen sie) mich aus)\b/ },
  { change: 'opted_in', languages: ['en'], pattern: /\b((start|resume) (sending|texting|messaging) me( messages)? again|subscribe me again|opt (me )?back in)\b/ },
  { change: 'opted_in', languages: ['es'], pattern: /\b(quiero volver a recibir (vuestros |tus |sus )?(mensajes|promociones)|dame de alta( otra vez| de nuevo)?)\b/ },
  { change: 'opted_in', languages: ['pt'], pattern: /\b(quero voltar a receber (as )?(mensagens|promocoes)|podem voltar a (me )?(mandar|enviar))\b/ },
  { change: 'opted_in', languages: ['fr'], pattern: /\b(je veux (de nouveau|a nouveau) recevoir (vos )?(messages|promos?)|reabonn(ez|er)( moi)?)\b/ },
  { change: 'opted_in', languages: ['de'], pattern: /\b(wieder anmelden|ich mochte (wieder|erneut) nachrichten (erhalten|bekommen))\b/ },
];
/** A longer message asks for more than that ("…and also, do you deliver on Sundays?"). */
const SHORT_MESSAGE_WORDS = 15;

/**
 * The opt-out or opt-in a message asks for, or null: a whole-message keyword ("stop", "Baja.", "¡ARRÊT!") in any case
 * and with or without accents, or a short message that asks for it in so many words (PHRASES).
 */
export function optRequestOf(text: string): OptRequest | null {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').trim();
  const word = folded.replace(/^[\s¡¿"'«]+|[\s.!?¡¿…,;:"'»)]+$/gu, '').toUpperCase();
  const found = Object.hasOwn(KEYWORDS, word) ? KEYWORDS[word] : undefined;
  if (found) return { change: found.change, keyword: word, languages: found.languages };
  const plain = folded.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  if (plain.split(' ').length > SHORT_MESSAGE_WORDS) return null;
  const phrase = PHRASES.find((p) => p.pattern.test(plain));
  return phrase ? { change: phrase.change, keyword: plain.match(phrase.pattern)![0].toUpperCase(), languages: phrase.languages } : null;
}

/** The confirmation's language: the conversation's when the keyword belongs to it, else the keyword's usual one. */
export function confirmationLanguage(request: OptRequest, conversationLanguage: Language | undefined): Language {
  return conversationLanguage && request.languages.includes(conversationLanguage) ? conversationLanguage : request.languages[0];
}

/** The one-line confirmations, in each language the engine speaks (like ENGINE_PHRASES). */
export const OPT_CONFIRMATIONS: Record<Language, Record<OptChange, string>> = {
  en: {
    opted_out: "You won't receive marketing messages from us any more. Reply START to receive them again.",
    opted_in: "You're subscribed to our messages again. Reply STOP to unsubscribe.",
  },
  es: {
    opted_out: 'Ya no recibirás mensajes promocionales nuestros. Responde ALTA para volver a recibirlos.',
    opted_in: 'Vuelves a recibir nuestros mensajes. Responde BAJA para darte de baja.',
  },
  pt: {
    opted_out: 'Você não receberá mais mensagens promocionais nossas. Responda VOLTAR para recebê-las novamente.',
    opted_in: 'Você voltou a receber nossas mensagens. Responda PARAR para cancelar.',
  },
  fr: {
    opted_out: 'Vous ne recevrez plus nos messages promotionnels. Répondez REPRENDRE pour les recevoir à nouveau.',
    opted_in: 'Vous recevez à nouveau nos messages. Répondez ARRET pour vous désabonner.',
  },
  de: {
    opted_out: 'Sie erhalten keine Werbenachrichten mehr von uns. Antworten Sie ANMELDEN, um sie wieder zu erhalten.',
    opted_in: 'Sie erhalten unsere Nachrichten wieder. Antworten Sie STOPP, um sich abzumelden.',
  },
};
