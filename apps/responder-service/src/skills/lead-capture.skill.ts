import type { ReplyEffects, SkillState } from '../replies/reply-engine';
import { isNo } from './confirmations';
import { phrasesIn } from './dialogue-phrases';
import { extractLeadFacts, statesName, type LeadFacts, type LeadField } from './lead-facts';
import type { SkillAnswer, SkillRequest } from './skill';

type LeadState = NonNullable<SkillState['lead']>;

// Asking to be contacted, in the five languages ("get a quote", "presupuesto", "orçamento", "devis", "Rückruf").
const LEAD_INTENT =
  /\b(quote|quotation|interested|contact me|call me|get in touch|reach me|sign me up|sign up|callback|call back|brochure|demo|estimate|my name is|my email|my number|my phone|presupuesto|cotizaci[oó]n|cont[aá]ctame|ll[aá]mame|interesad[oa]|or[cç]amento|me liga|me ligue|entrem em contato|interessad[oa]|devis|rappelez-moi|me rappeler|rappeler|contactez-moi|int[eé]ress[eé]e?|angebot|kostenvoranschlag|r[uü]ckruf|rufen sie mich|kontaktieren sie mich|interessiert)\b/iu;
// The customer will not give what was asked ("I'd rather not", "no email", "prefiero no", "lieber nicht").
const DECLINES =
  /\b(rather not|prefer not|no email|don'?t have (an? )?(email|e-mail)|skip|not now|prefiero no|no tengo|sin correo|prefiro n[aã]o|n[aã]o tenho|sem e-?mail|je pr[eé]f[eè]re pas|pas d'e-?mail|je n'ai pas|lieber nicht|keine e-?mail|habe keine|nicht n[oö]tig)\b/iu;

/** The message starts or feeds lead capture: it says so, states a name, or states a contact detail. */
export function wantsLeadCapture(text: string, customer: string): boolean {
  if (LEAD_INTENT.test(text) || statesName(text)) return true;
  const facts = extractLeadFacts(text, { customerNumber: phoneOf(customer) });
  return facts.email !== undefined || (facts.phone !== undefined && facts.phone !== phoneOf(customer));
}

/** Whether lead capture is waiting for an answer in this conversation. */
export function leadInProgress(state: SkillState): boolean {
  return state.lead !== undefined && !state.lead.done && state.lead.asking !== null;
}

/** The message carries at least one lead fact (given what the agent asked). */
export function hasLeadFacts(request: SkillRequest): boolean {
  const facts = extractLeadFacts(request.message.text, { expecting: request.state.lead?.asking ?? null, customerNumber: phoneOf(request.customer) });
  return Object.keys(facts).length > 0;
}

/**
 * Collects name, email, phone and interest over the conversation, in any order and one question at a time. Several
 * facts in one message are all taken; a later statement of a fact replaces the earlier one (a correction). The phone
 * defaults to the customer's WhatsApp number. Once a name and a way to reach the person are known the lead is an
 * effect (stored and announced on `lead.captured` by the caller); each later change is one again (`lead.updated`).
 * Optional details the customer will not give are not asked again.
 */
export function leadCapture(request: SkillRequest): SkillAnswer {
  const previous: LeadState = request.state.lead ?? { facts: {}, asking: null, done: false };
  const customerNumber = phoneOf(request.customer);
  const text = request.message.text;
  // Details given earlier in the conversation, before lead capture began ("Hi, this is Dave. Can I book…"), count too.
  const earlier = request.state.lead ? {} : factsFromHistory(request, customerNumber);
  const said = { ...earlier, ...extractLeadFacts(text, { expecting: previous.asking, customerNumber }) };
  // A bare answer ("maria.lopez@gmail.com", "Tom") says nothing about the language: the dialogue keeps its own.
  const language = previous.language && onlyFacts(text) ? previous.language : request.language;
  const say = phrasesIn(language);
  const declined = [...(previous.declined ?? [])];
  const refused = previous.asking !== null && said[previous.asking] === undefined && (isNo(text) || DECLINES.test(text));
  if (refused && previous.asking !== 'name') declined.push(previous.asking!);

  const { facts, next, stored, effects } = leadProgress(previous, said, customerNumber, declined);
  const corrected = (Object.keys(said) as LeadField[]).filter((f) => previous.facts[f] !== undefined && previous.facts[f] !== said[f]);

  let intro = '';
  if (corrected.length > 0) intro = say.updatedFields(corrected.map((f) => say.fieldNames[f]).join(', '));
  else if (said.name && said.name !== previous.facts.name) intro = say.niceToMeet(firstName(said.name));
  else if (Object.keys(said).length > 0) intro = say.thanks;
  else if (refused) intro = say.leadSkipped;
  else if (text.trim() !== '' && (previous.asking === 'email' || previous.asking === 'phone')) intro = say.unreadable(previous.asking);

  const lead: LeadState = { facts, asking: next, done: next === null, stored, declined, language };
  const state: SkillState = { ...request.state, lead };
  if (next !== null) return { text: `${intro}${say.ask[next]}`, skill: 'lead_capture', state, ...(effects ? { effects } : {}) };

  const name = firstName(facts.name!);
  const details = [facts.name, facts.email, facts.phone, facts.interest && say.interestedIn(facts.interest)].filter(Boolean).join(', ');
  // Finished: the first time it says the details went to the team; after that, that they were updated.
  const closing = previous.done ? say.leadUpdated(name, details) : `${corrected.length > 0 || refused ? intro : ''}${say.leadCaptured(name, details)}`;
  return { text: closing, skill: 'lead_capture', state, ...(effects ? { effects } : {}) };
}

/** Where a lead stands once the customer said `said`: its facts, what to ask next, and the lead effect, if any. */
export interface LeadProgress {
  facts: LeadFacts;
  next: LeadField | null;
  /** The lead is (now) stored: a name and a way to reach the person are known. */
  stored: boolean;
  effects?: Pick<ReplyEffects, 'lead'>;
}

/**
 * Merges what the customer said into the lead (a later statement of a fact replaces the earlier one; the phone defaults
 * to the customer's WhatsApp number). Once a name and a way to reach the person are known the lead is an effect (stored,
 * `lead.captured`), and again on each later change (`lead.updated`). The lead skill and the LLM's lead tool both use it.
 */
export function leadProgress(previous: LeadState, said: LeadFacts, customerNumber: string | null, declined: LeadField[] = previous.declined ?? []): LeadProgress {
  const facts: LeadFacts = { ...(customerNumber ? { phone: customerNumber } : {}), ...previous.facts, ...said };
  const changed = (Object.keys(facts) as LeadField[]).some((f) => previous.facts[f] !== facts[f]);
  const complete = facts.name !== undefined && (facts.email !== undefined || facts.phone !== undefined);
  const effects = complete && (changed || !previous.stored) ? { lead: facts as LeadFacts & { name: string } } : undefined;
  return { facts, next: nextQuestion(facts, declined), stored: previous.stored === true || complete, ...(effects ? { effects } : {}) };
}

/**
 * What to ask next: the name, then a way to reach the person, then an email (when only the WhatsApp number is known)
 * and the interest; nothing the customer declined.
 */
function nextQuestion(facts: LeadFacts, declined: LeadField[]): LeadField | null {
  if (!facts.name) return 'name';
  if (!facts.email && !facts.phone) return !declined.includes('email') ? 'email' : declined.includes('phone') ? null : 'phone';
  if (!facts.email && !declined.includes('email')) return 'email';
  if (!facts.interest && !declined.includes('interest')) return 'interest';
  return null;
}

/** The name and contact details the customer stated in earlier messages (later ones win). */
function factsFromHistory(request: SkillRequest, customerNumber: string | null): LeadFacts {
  const facts: LeadFacts = {};
  for (const turn of request.conversationHistory) {
    if (turn.role !== 'customer') continue;
    const { name, email, phone } = extractLeadFacts(turn.text, { customerNumber });
    Object.assign(facts, name ? { name } : {}, email ? { email } : {}, phone ? { phone } : {});
  }
  return facts;
}

/** The message is little more than an email address (maybe spelt out: "tom at gmail dot com") or a phone number. */
function onlyFacts(text: string): boolean {
  const rest = text.replace(/\S+@\S+|\+?\d[\d ().-]{5,}\d/g, ' ').replace(/\b(at|dot|arroba|punto|ponto|point|punkt)\b/giu, ' ');
  return rest.split(/[^\p{L}]+/u).filter(Boolean).length <= 3;
}

function firstName(name: string): string {
  return name.split(' ')[0];
}

/** The customer's WhatsApp number when the customer id is one (E.164), else null (a business-scoped user id). */
export function phoneOf(customer: string): string | null {
  return /^\+[1-9]\d{6,14}$/.test(customer) ? customer : null;
}
