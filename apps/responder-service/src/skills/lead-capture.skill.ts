import type { SkillState } from '../replies/reply-engine';
import { LEAD_FIELDS, extractLeadFacts, type LeadFacts, type LeadField } from './lead-facts';
import type { SkillAnswer, SkillRequest } from './skill';

const QUESTIONS: Record<LeadField, string> = {
  name: 'May I have your name?',
  email: "What's the best email address to reach you?",
  phone: "What's the best phone number to reach you?",
  interest: 'What are you interested in?',
};

const LEAD_INTENT =
  /\b(quote|quotation|interested|contact me|call me|get in touch|reach me|sign me up|sign up|callback|call back|brochure|demo|estimate|my name is|my email|my number|my phone)\b/i;

/** The message starts or feeds lead capture: it says so, or states a contact detail. */
export function wantsLeadCapture(text: string, customer: string): boolean {
  if (LEAD_INTENT.test(text)) return true;
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
 * Collects name, email, phone and interest over the conversation, one question at a time. Several facts in one
 * message are all taken; a later statement of a fact replaces the earlier one (a correction). The phone defaults to
 * the customer's WhatsApp number. Complete: the lead is an effect (stored and announced by the caller).
 */
export function leadCapture(request: SkillRequest): SkillAnswer {
  const previous = request.state.lead ?? { facts: {}, asking: null, done: false };
  const customerNumber = phoneOf(request.customer);
  const said = extractLeadFacts(request.message.text, { expecting: previous.asking, customerNumber });
  const facts: LeadFacts = { ...(customerNumber ? { phone: customerNumber } : {}), ...previous.facts, ...said };
  const corrected = (Object.keys(said) as LeadField[]).filter((f) => previous.facts[f] !== undefined && previous.facts[f] !== said[f]);
  const missing = LEAD_FIELDS.filter((f) => !facts[f]);

  if (missing.length > 0) {
    const next = missing[0];
    const ack = acknowledge(said, corrected, previous.asking);
    return {
      text: `${ack}${QUESTIONS[next]}`,
      skill: 'lead_capture',
      state: { ...request.state, lead: { facts, asking: next, done: false } },
    };
  }
  const lead = facts as Required<LeadFacts>;
  const text = previous.done
    ? `Thanks, ${firstName(lead.name)}, I've updated your details: ${summary(lead)}.`
    : `Thank you, ${firstName(lead.name)}! I've passed your details to our team (${summary(lead)}). Someone will be in touch soon.`;
  return { text, skill: 'lead_capture', state: { ...request.state, lead: { facts, asking: null, done: true } }, effects: { lead } };
}

function acknowledge(said: LeadFacts, corrected: LeadField[], asked: LeadField | null): string {
  if (corrected.length > 0) return `Got it, I've updated your ${corrected.join(' and ')}. `;
  if (said.name) return `Nice to meet you, ${firstName(said.name)}! `;
  if (Object.keys(said).length > 0) return 'Thanks! ';
  if (asked === 'email' || asked === 'phone') return `Sorry, I couldn't read that as ${asked === 'email' ? 'an email address' : 'a phone number'}. `;
  return '';
}

function summary(lead: Required<LeadFacts>): string {
  return `${lead.name}, ${lead.email}, ${lead.phone}, interested in ${lead.interest}`;
}

function firstName(name: string): string {
  return name.split(' ')[0];
}

/** The customer's WhatsApp number when the customer id is one (E.164), else null (a business-scoped user id). */
export function phoneOf(customer: string): string | null {
  return /^\+[1-9]\d{6,14}$/.test(customer) ? customer : null;
}
