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
 * The opt-out or opt-in a message asks for, or null. Only a whole message counts ("stop", "Baja.", "¡ARRÊT!"), in any
 * case and with or without accents, so "please stop calling me at work" stays an ordinary message.
 */
export function optRequestOf(text: string): OptRequest | null {
  const word = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .trim()
    .replace(/^[\s¡¿"'«]+|[\s.!?¡¿…,;:"'»)]+$/gu, '')
    .toUpperCase();
  const found = Object.hasOwn(KEYWORDS, word) ? KEYWORDS[word] : undefined;
  return found ? { change: found.change, keyword: word, languages: found.languages } : null;
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
