import type { ChannelKind, MessageInboundData, OutboundContent } from '@parley/contracts';
import type { Language } from '../knowledge/language';

/** How long after the question an answer still counts as the rating (the customer-service window). */
export const RATING_ANSWER_MS = 24 * 60 * 60 * 1000;

const QUESTION: Record<Language, string> = {
  en: 'How would you rate the help you got today?',
  es: '¿Cómo valorarías la ayuda que recibiste hoy?',
  pt: 'Como avalia a ajuda que recebeu hoje?',
  fr: 'Comment évaluez-vous l’aide reçue aujourd’hui ?',
  de: 'Wie bewerten Sie die Hilfe, die Sie heute bekommen haben?',
};

/** A text channel's way to answer: the number alone. */
const REPLY_WITH: Record<Language, string> = {
  en: 'Reply with a number from 1 (very poor) to 5 (excellent).',
  es: 'Responde con un número del 1 (muy mala) al 5 (excelente).',
  pt: 'Responda com um número de 1 (muito má) a 5 (excelente).',
  fr: 'Répondez par un chiffre de 1 (très mauvaise) à 5 (excellente).',
  de: 'Antworten Sie mit einer Zahl von 1 (sehr schlecht) bis 5 (ausgezeichnet).',
};

/** WhatsApp's list: the button that opens it, and the five rows (titles ≤ 24 characters), best first. */
const LIST: Record<Language, { button: string; rows: [string, string, string, string, string] }> = {
  en: { button: 'Rate', rows: ['Excellent', 'Good', 'OK', 'Poor', 'Very poor'] },
  es: { button: 'Valorar', rows: ['Excelente', 'Buena', 'Normal', 'Mala', 'Muy mala'] },
  pt: { button: 'Avaliar', rows: ['Excelente', 'Boa', 'Razoável', 'Má', 'Muito má'] },
  fr: { button: 'Évaluer', rows: ['Excellente', 'Bonne', 'Correcte', 'Mauvaise', 'Très mauvaise'] },
  de: { button: 'Bewerten', rows: ['Ausgezeichnet', 'Gut', 'In Ordnung', 'Schlecht', 'Sehr schlecht'] },
};

const THANKS: Record<Language, string> = {
  en: 'Thank you for your rating!',
  es: '¡Gracias por tu valoración!',
  pt: 'Obrigado pela sua avaliação!',
  fr: 'Merci pour votre évaluation !',
  de: 'Vielen Dank für Ihre Bewertung!',
};

/** The id a list row answers with: `csat:5` … `csat:1`. */
const ROW_ID = /^csat:([1-5])$/;

/**
 * The rating question sent when a conversation is closed: WhatsApp's list of five (WhatsApp allows three reply
 * buttons, so a list holds the scale), a short text question on SMS and email. Null on a voice call.
 */
export function ratingQuestion(channel: ChannelKind, language: Language): { content: OutboundContent; text: string } | null {
  if (channel === 'voice') return null;
  if (channel !== 'whatsapp') {
    const text = `${QUESTION[language]} ${REPLY_WITH[language]}`;
    return { content: { type: 'text', text }, text };
  }
  const { button, rows } = LIST[language];
  return {
    content: {
      type: 'interactive',
      interactive: { type: 'list', body: QUESTION[language], button, sections: [{ rows: rows.map((title, i) => ({ id: `csat:${5 - i}`, title: `${5 - i} · ${title}` })) }] },
    },
    text: `[interactive] ${QUESTION[language]}`,
  };
}

/** The rating a customer's message gives: a row of the list tapped, or on any channel a lone 1–5 ("4", "5/5", "3 stars", "⭐⭐⭐⭐"). */
export function ratingIn(message: Pick<MessageInboundData, 'type' | 'text' | 'interactive'>): number | null {
  const tapped = message.interactive?.id ? ROW_ID.exec(message.interactive.id) : null;
  if (tapped) return Number(tapped[1]);
  if (message.type !== 'text') return null;
  const text = message.text.trim();
  const stars = /^(⭐|★){1,5}$/u.exec(text);
  if (stars) return [...text].length;
  const number = /^([1-5])(\s*\/\s*5)?(\s*(stars?|estrellas?|estrelas?|étoiles?|sterne?))?[.!]?$/iu.exec(text);
  return number ? Number(number[1]) : null;
}

export function ratingThanks(language: Language): string {
  return THANKS[language];
}
