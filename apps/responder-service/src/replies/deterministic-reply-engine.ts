import { Injectable } from '@nestjs/common';
import type { AgentRecord, Skill } from '@parley/contracts';
import { detectLanguage, type Language } from '../knowledge/language';
import { asksQuestion } from '../knowledge/questions';
import { analyze } from '../knowledge/text-analysis';
import { appointmentBooking, bookingContinues, wantsBooking } from '../skills/appointment-booking.skill';
import { bookingOf, hasWhen, parseWhen } from '../skills/calendar';
import { answerFromKnowledge, knowledgeAnswer, unknownQuestion } from '../skills/faq.skill';
import { hasLeadFacts, leadCapture, leadInProgress, wantsLeadCapture } from '../skills/lead-capture.skill';
import { isNo, isYes, type SkillAnswer, type SkillRequest } from '../skills/skill';
import { ACKNOWLEDGED, ENGINE_PHRASES, GREETING_ONLY, THANKS, asksForPerson } from './engine-phrases';
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

  async reply(request: ReplyRequest): Promise<Reply> {
    const answer = await route(request);
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
    };
  }
}

/** A passage covering this much of a question answers it even when the question names a day ("open on Saturday?"). */
const WHOLE_QUESTION = 0.8;

async function route(replyRequest: ReplyRequest): Promise<SkillAnswer> {
  const language = detectLanguage(replyRequest.message.text, replyRequest.state.language);
  const request: SkillRequest = { ...replyRequest, language, state: { ...replyRequest.state, language } };
  const { agent, state } = request;
  const text = request.message.text;
  const has = (skill: Skill) => agent.skills.includes(skill);
  const phrases = ENGINE_PHRASES[language];

  if (asksForPerson(text) || (state.humanOffered && isYes(text))) {
    return { text: phrases.toHuman, skill: null, state: { ...state, humanOffered: false, unknownStreak: 0 }, handoff: 'customer_asked_for_human' };
  }
  if (state.humanOffered && isNo(text)) {
    // Declined: the next unknown question offers a person again rather than handing over unasked.
    return { text: phrases.declinedHuman, skill: null, state: { ...state, humanOffered: false, unknownStreak: 0 } };
  }

  const faq = knowledgeAnswer(request);
  const booking = has('appointment_booking');
  // A question the knowledge answers wins over booking ("is the cake available in chocolate?"), not over a date
  // unless it answers the whole question outside a booking dialogue ("are you open on Saturdays?"), and never over
  // moving or cancelling the booking made. Only an agent that books asks for the date (the costliest step).
  const knowledgeFirst = () => {
    if (faq === null || !asksQuestion(text)) return false;
    const continues = bookingContinues(request);
    if (continues && state.booking?.stage === 'booked') return false;
    if (!continues && faq.score >= WHOLE_QUESTION) return true;
    return !hasWhen(parseWhen(text, bookingOf(agent.booking).timezone, request.now, { language }));
  };
  if (booking && !knowledgeFirst() && (bookingContinues(request) || wantsBooking(request))) return appointmentBooking(request);

  const lead = has('lead_capture');
  if (lead && leadInProgress(state)) {
    if (faq && asksQuestion(text) && !hasLeadFacts(request)) {
      // Answer the side question, then pick the lead up where it was.
      const resumed = leadCapture({ ...request, message: { ...request.message, text: '' } });
      return { ...answerFromKnowledge(request, faq), text: `${faq.excerpt}\n\n${resumed.text}`, state: { ...resumed.state, unknownStreak: 0 } };
    }
    return leadCapture(request);
  }
  if (lead && wantsLeadCapture(text, request.customer)) return leadCapture(request);

  if (faq) return answerFromKnowledge(request, faq);
  if (THANKS.test(text)) return { text: phrases.youreWelcome, skill: null, state };
  if (ACKNOWLEDGED.test(text)) return { text: phrases.anythingElse, skill: null, state };
  if (GREETING_ONLY.test(text) || analyze(text, language).length === 0) return { text: acknowledgement(agent, language), skill: null, state };
  if (has('faq_responder')) return unknownQuestion(request);
  return { text: acknowledgement(agent, language), skill: null, state };
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
