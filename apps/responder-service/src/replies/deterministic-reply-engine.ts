import { Injectable } from '@nestjs/common';
import type { AgentRecord, Skill } from '@parley/contracts';
import type { Meaning } from '../knowledge/knowledge-match';
import { detectLanguage, type Language } from '../knowledge/language';
import { asksQuestion, questionSentences } from '../knowledge/questions';
import { analyze } from '../knowledge/text-analysis';
import { advancesBooking, appointmentBooking, asksAboutBusiness, asksForAppointment, bookingContinues, bookingReminder, wantsBooking } from '../skills/appointment-booking.skill';
import { bookingOf, hasWhen, parseWhen } from '../skills/calendar';
import { answerFromKnowledge, knowledgeAnswer, unknownQuestion, type KnowledgeAnswer } from '../skills/faq.skill';
import { hasLeadFacts, leadCapture, leadInProgress, wantsLeadCapture } from '../skills/lead-capture.skill';
import { isNo, isYes, type SkillAnswer, type SkillRequest } from '../skills/skill';
import { ENGINE_PHRASES } from './engine-phrases';
import { smallTalkOf, type SmallTalk } from './small-talk';
import { ReplyEngine, composeReply, type Reply, type ReplyRequest } from './reply-engine';

/**
 * The skills engine, with no LLM: routes each message to a skill (a person asked for → hand-off; a booking in
 * progress or asked for → appointment_booking; contact details or a lead in progress → lead_capture; else the passage of
 * the agent's knowledge that answers it, or an honest "I don't know" with a person offered), in the customer's language.
 * A pure function of its request (the calendar is read only): the same request always gets the same reply, and effects
 * are left to the caller.
 */
@Injectable()
export class DeterministicReplyEngine extends ReplyEngine {
  override readonly answersAtOnce = true;

  /** @param meaning the in-process model that matches questions to knowledge by meaning; null: by words only */
  constructor(private readonly meaning: Meaning | null = null) {
    super();
  }

  async reply(request: ReplyRequest): Promise<Reply> {
    const answer = await route(request, this.meaning);
    // The tenant's knowledge is never reworded; the formal rewording is English (the other languages' phrases are polite).
    const tenantsWords = answer.skill === 'faq_responder' && !answer.handoff && !answer.state.humanOffered;
    const text = tenantsWords || answer.state.language !== 'en' ? answer.text : shapeTone(request.agent, answer.text);
    return {
      text: composeReply(request.agent, request.firstReply, text),
      skill: answer.skill,
      handoff: answer.handoff !== undefined,
      ...(answer.handoff ? { handoffReason: answer.handoff } : {}),
      state: answer.state,
      effects: answer.effects ?? {},
      sources: answer.sources ?? [],
      ...(answer.confidence !== undefined ? { confidence: answer.confidence } : {}),
      ...(answer.notKnown ? { notKnown: true } : {}),
    };
  }
}

/** A passage covering this much of a question answers it even when the question names a day ("open on Saturday?"). */
const WHOLE_QUESTION = 0.8;

async function route(replyRequest: ReplyRequest, meaning: Meaning | null): Promise<SkillAnswer> {
  const language = detectLanguage(replyRequest.message.text, replyRequest.state.language);
  const request: SkillRequest = { ...replyRequest, language, state: { ...replyRequest.state, language } };
  const { agent, state } = request;
  const text = request.message.text;
  const has = (skill: Skill) => agent.skills.includes(skill);
  const phrases = ENGINE_PHRASES[language];
  const talk = await smallTalkOf(text, language, meaning);

  // Contact details given with the wish to talk to someone ("…talk to someone about a plan, my email is …") are a lead:
  // the team gets the details and gets back.
  if (talk === 'person' && has('lead_capture') && wantsLeadCapture(text, request.customer) && hasLeadFacts(request)) return leadCapture(request);
  const onCall = request.channel === 'voice';
  if (talk === 'person' || (state.humanOffered && isYes(text))) {
    return { text: onCall ? phrases.toHumanOnCall : phrases.toHuman, skill: null, state: { ...state, humanOffered: false, unknownStreak: 0 }, handoff: 'customer_asked_for_human' };
  }
  if (talk === 'complaint') {
    return { text: onCall ? phrases.sorryToHearOnCall : phrases.sorryToHear, skill: null, state: { ...state, humanOffered: false, unknownStreak: 0 }, handoff: 'customer_asked_for_human' };
  }
  if (state.humanOffered && isNo(text)) {
    // Declined: the next unknown question offers a person again rather than handing over unasked.
    return { text: phrases.declinedHuman, skill: null, state: { ...state, humanOffered: false, unknownStreak: 0 } };
  }

  const booking = has('appointment_booking');
  const lead = has('lead_capture');
  // What moves a booking dialogue on ("sim", "pode ser", "the second one", "Friday instead") goes to it, whatever the
  // knowledge would make of the words.
  const bookingWaits = booking && state.booking !== undefined && state.booking.stage !== 'booked';
  if (bookingWaits && advancesBooking(request)) return appointmentBooking(request);
  // A message that is only a greeting, thanks, praise or "ok" is answered as such, never from the knowledge.
  const polite = politeReply(talk, request);
  if (polite) return polite;

  const faq = await knowledgeAnswer(request, meaning);

  // In the middle of a booking or lead dialogue, a side question is answered and the pending step offered again
  // (CONTRACT §20), never read as the dialogue's answer.
  const dialogueWaits = bookingWaits || (lead && leadInProgress(state));
  if (dialogueWaits && isSideQuestion(request, talk, faq)) return sideQuestion(request, faq);

  // Asking for a quote or a call back, with a name or details, is a lead even when it names a date ("a day of surf in March").
  if (lead && !state.booking && wantsLeadCapture(text, request.customer) && !asksForAppointment(request)) return leadCapture(request);

  if (booking) {
    const priceAsked = asksPrice(text, language);
    // A question the knowledge answers wins over booking ("is the cake available in chocolate?"), and a question
    // about the business is never a booking request however it names a day ("how much is a lesson on Saturday?").
    const knowledgeFirst = () => {
      if (state.booking?.stage === 'booked' && bookingContinues(request)) return false;
      if (!state.booking && asksAboutBusiness(request, priceAsked)) return true;
      if (faq === null || !asksQuestion(text)) return false;
      if (faq.coverage >= WHOLE_QUESTION) return true;
      return !hasWhen(parseWhen(text, bookingOf(agent.booking).timezone, request.now, { language }));
    };
    if (!knowledgeFirst() && (bookingContinues(request) || wantsBooking(request))) return appointmentBooking(request);
  }

  if (lead && leadInProgress(state)) return leadCapture(request);
  if (lead && wantsLeadCapture(text, request.customer)) return leadCapture(request);

  if (faq) return answerFromKnowledge(request, faq);
  if (analyze(text, language).length === 0) return { text: phrases.howCanIHelp, skill: null, state };
  if (has('faq_responder')) return unknownQuestion(request);
  return { text: acknowledgement(agent, language), skill: null, state };
}

/** The reply to a message that is only a greeting, thanks, praise or an acknowledgement; null for anything else. */
function politeReply(talk: SmallTalk | null, request: SkillRequest): SkillAnswer | null {
  const phrases = ENGINE_PHRASES[request.language];
  const { agent, state } = request;
  switch (talk) {
    case 'thanks':
      return { text: phrases.youreWelcome, skill: null, state };
    case 'compliment':
      return { text: phrases.gladToHear, skill: null, state };
    case 'acknowledged':
      return { text: phrases.anythingElse, skill: null, state };
    case 'greeting':
      // The first reply of an agent with no greeting of its own says who it is and what it can do.
      return { text: request.firstReply && !agent.greeting.trim() ? acknowledgement(agent, request.language) : phrases.howCanIHelp, skill: null, state };
    default:
      return null;
  }
}

/**
 * The message asks something of its own rather than answering the dialogue in progress: a question ("?" anywhere, a
 * question word), a price asked, or words the knowledge answers ("wait, do I need to send his vaccine records").
 */
function isSideQuestion(request: SkillRequest, talk: SmallTalk | null, faq: KnowledgeAnswer | null): boolean {
  if (talk !== null) return false;
  const text = request.message.text;
  const asks = asksQuestion(text) || text.includes('?') || questionSentences(text).length > 0 || asksPrice(text, request.language) || faq !== null;
  if (request.state.booking && request.state.booking.stage !== 'booked') return !advancesBooking(request) && asks;
  return asks && !hasLeadFacts(request);
}

/**
 * A side question in the middle of a dialogue: answered from knowledge, or honestly not known (without offering a
 * person, so that a "yes" still answers the dialogue), then the dialogue's pending step again.
 */
function sideQuestion(request: SkillRequest, faq: KnowledgeAnswer | null): SkillAnswer {
  const answered = faq ? answerFromKnowledge(request, faq) : null;
  const first = answered?.text ?? ENGINE_PHRASES[request.language].notKnownMidDialogue;
  const reminder = bookingReminder(request) ?? (leadInProgress(request.state) ? leadCapture({ ...request, message: { ...request.message, text: '' } }).text : null);
  const state = { ...request.state, unknownStreak: 0, humanOffered: false };
  return {
    ...(answered ?? { skill: 'faq_responder' as const, notKnown: true }),
    text: reminder ? `${first}\n\n${reminder}` : first,
    state,
  };
}

/** The question asks what something costs (the `#price` concept: "how much", "cuánto cuesta", "was kostet"). */
function asksPrice(text: string, language: Language): boolean {
  return analyze(text, language, { query: true }).some((t) => t.term === '#price' && t.weight >= 1);
}

function acknowledgement(agent: AgentRecord, language: Language): string {
  const phrases = ENGINE_PHRASES[language];
  const offers = agent.skills.map((s) => phrases.offers[s]);
  const intro = phrases.welcome(agent.name);
  if (offers.length === 0) return `${intro} ${phrases.willGetBack}`;
  return `${intro} ${phrases.canHelpWith(listed(offers, phrases.or))}`;
}

function listed(items: string[], or: string): string {
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} ${or} ${items[items.length - 1]}`;
}

/**
 * The instruction shapes the tone of what the engine writes itself (never the tenant's FAQ answers): an agent told
 * to be formal or professional drops the exclamation marks and casual phrases.
 */
export function shapeTone(agent: AgentRecord, text: string): string {
  if (!/\b(formal|professional|polite|courteous)\b/i.test(agent.instruction)) return text;
  return text
    .replace(/\bThanks\b/g, 'Thank you')
    .replace(/\bGot it\b/g, 'Understood')
    .replace(/\bNo problem\b/g, 'Certainly')
    .replace(/\bSorry\b/g, 'I apologise')
    .replace(/\bI'm sorry\b/g, 'I apologise')
    .replace(/!/g, '.');
}
