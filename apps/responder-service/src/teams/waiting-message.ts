import { DateTime } from 'luxon';
import type { Language } from '../knowledge/language';

/** What a customer handed to a person is told, once, when nobody can answer at once (CONTRACT.md §18). */
export type Waiting =
  /** Open, but every member is busy, away or offline: how long an answer usually takes (the team's first-response target). */
  | { kind: 'busy'; firstResponseSeconds: number | null }
  /** Outside business hours: the team's own words (or ours), and when it opens again in its time zone. */
  | { kind: 'closed'; closedMessage: string | null; opensAt: Date | null; timezone: string };

const BUSY: Record<Language, (within: string | null) => string> = {
  en: (w) => `Thanks for waiting: everyone on our team is busy right now. A person will answer you here as soon as possible${w ? `, usually within ${w}` : ''}.`,
  es: (w) => `Gracias por esperar: ahora mismo todo nuestro equipo está ocupado. Una persona te responderá aquí lo antes posible${w ? `, normalmente en menos de ${w}` : ''}.`,
  pt: (w) => `Obrigado por aguardar: neste momento toda a nossa equipa está ocupada. Uma pessoa vai responder aqui o mais depressa possível${w ? `, normalmente em menos de ${w}` : ''}.`,
  fr: (w) => `Merci de patienter : toute notre équipe est occupée pour le moment. Une personne vous répondra ici dès que possible${w ? `, en général en moins de ${w}` : ''}.`,
  de: (w) => `Danke für Ihre Geduld: Unser Team ist gerade voll beschäftigt. Eine Person antwortet Ihnen hier so bald wie möglich${w ? `, normalerweise innerhalb von ${w}` : ''}.`,
};

const CLOSED: Record<Language, string> = {
  en: 'We are closed right now, so nobody from our team can answer at the moment.',
  es: 'Ahora mismo estamos cerrados y nadie del equipo puede responderte.',
  pt: 'Neste momento estamos fechados e ninguém da equipa pode responder.',
  fr: 'Nous sommes fermés pour le moment et personne de l’équipe ne peut vous répondre.',
  de: 'Wir haben gerade geschlossen, daher kann Ihnen im Moment niemand aus dem Team antworten.',
};

/** "We are back …", with the opening time written as people of that language write it. */
const BACK: Record<Language, { format: string; text: (when: string) => string }> = {
  en: { format: "cccc d LLLL 'at' HH:mm", text: (when) => `We are back on ${when}, and a person will answer you then.` },
  es: { format: "cccc d 'de' LLLL 'a las' HH:mm", text: (when) => `Volvemos el ${when} y entonces una persona te responderá.` },
  pt: { format: "cccc, d 'de' LLLL, 'às' HH:mm", text: (when) => `Voltamos ${when} e uma pessoa vai responder-lhe nessa altura.` },
  fr: { format: "cccc d LLLL 'à' HH:mm", text: (when) => `Nous serons de retour ${when} et une personne vous répondra alors.` },
  de: { format: "cccc, d. LLLL, 'um' HH:mm 'Uhr'", text: (when) => `Wir sind ${when} wieder da, dann antwortet Ihnen eine Person.` },
};

/** The message, in the customer's language. */
export function waitingMessage(waiting: Waiting, language: Language): string {
  if (waiting.kind === 'busy') return BUSY[language](waiting.firstResponseSeconds ? duration(waiting.firstResponseSeconds, language) : null);
  const closed = waiting.closedMessage ?? CLOSED[language];
  if (!waiting.opensAt) return closed;
  const back = BACK[language];
  const when = DateTime.fromJSDate(waiting.opensAt, { zone: waiting.timezone }).setLocale(language).toFormat(back.format);
  return `${closed} ${back.text(when)}`;
}

/** "15 minutes", "2 Stunden": whole hours from two hours up, else minutes (rounded up). */
function duration(seconds: number, language: Language): string {
  const [value, unit] = seconds >= 7200 ? [Math.round(seconds / 3600), 'hour'] : [Math.max(1, Math.ceil(seconds / 60)), 'minute'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}
