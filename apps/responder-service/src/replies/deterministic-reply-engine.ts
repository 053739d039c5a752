import { Injectable } from '@nestjs/common';
import type { AgentRecord, Skill } from '@parley/contracts';
import { appointmentBooking, bookingContinues, wantsBooking } from '../skills/appointment-booking.skill';
import { bookingOf, hasWhen, parseWhen } from '../skills/calendar';
import { answerFromFaq, faqAnswer, unknownQuestion } from '../skills/faq.skill';
import { hasLeadFacts, leadCapture, leadInProgress, wantsLeadCapture } from '../skills/lead-capture.skill';
import { asksForHuman, isNo, isQuestion, isYes, type SkillAnswer, type SkillRequest } from '../skills/skill';
import { detectLanguage } from '../knowledge/language';
import { ReplyEngine, composeReply, type Reply, type ReplyRequest } from './reply-engine';
import { keywords } from './text-match';

const SKILL_OFFERS: Record<Skill, string> = {
  faq_responder: 'answer your questions',
  lead_capture: 'pass your details to our team',
  appointment_booking: 'book an appointment for you',
};

const GREETING_ONLY = /^\s*(hi|hello|hey|hiya|yo|good (morning|afternoon|evening)|greetings)\b[\s!.,]*(there)?[\s!.,]*$/i;
const THANKS = /^\s*(thanks|thank you|thx|ty|cheers|great,? thanks|perfect,? thanks)\b/i;
const ACKNOWLEDGED = /^\s*(ok|okay|k|cool|great|alright|fine|sure|right|got it|nice|perfect)[\s!.]*$/i;
const TO_HUMAN = "Of course. I'm passing you to a member of our team, who will reply here shortly.";

/**
 * The skills engine, with no LLM: routes each message to a skill (a person asked for → hand-off; a booking in
 * progress or asked for → appointment_booking; contact details or a lead in progress → lead_capture; else the best
 * FAQ, or an honest "I don't know" with a person offered). A pure function of its request (the calendar is read only):
 * the same request always gets the same reply, and effects are left to the caller.
 */
@Injectable()
export class DeterministicReplyEngine extends ReplyEngine {
  override readonly answersAtOnce = true;

  async reply(request: ReplyRequest): Promise<Reply> {
    const answer = await route(request);
    const text = answer.skill === 'faq_responder' && !answer.handoff && !answer.state.humanOffered ? answer.text : shapeTone(request.agent, answer.text);
    return {
      text: composeReply(request.agent, request.firstReply, text),
      skill: answer.skill,
      handoff: answer.handoff !== undefined,
      ...(answer.handoff ? { handoffReason: answer.handoff } : {}),
      state: answer.state,
      effects: answer.effects ?? {},
    };
  }
}

async function route(replyRequest: ReplyRequest): Promise<SkillAnswer> {
  const language = detectLanguage(replyRequest.message.text, replyRequest.state.language);
  const request: SkillRequest = { ...replyRequest, language, state: { ...replyRequest.state, language } };
  const { agent, state } = request;
  const text = request.message.text;
  const has = (skill: Skill) => agent.skills.includes(skill);

  if (asksForHuman(text) || (state.humanOffered && isYes(text))) {
    return { text: TO_HUMAN, skill: null, state: { ...state, humanOffered: false, unknownStreak: 0 }, handoff: 'customer_asked_for_human' };
  }
  if (state.humanOffered && isNo(text)) {
    // Declined: the next unknown question offers a person again rather than handing over unasked.
    return { text: 'No problem. Is there anything else I can help you with?', skill: null, state: { ...state, humanOffered: false, unknownStreak: 0 } };
  }

  const faq = faqAnswer(request);
  const booking = has('appointment_booking');
  // A question the FAQs answer wins over booking ("is the cake available in chocolate?"), not over a date.
  // Only an agent that books asks for the date (parsing one is the engine's costliest step).
  const faqQuestion = () => faq !== null && isQuestion(text) && !hasWhen(parseWhen(text, bookingOf(agent.booking).timezone, request.now));
  if (booking && !faqQuestion() && (bookingContinues(request) || wantsBooking(request))) return appointmentBooking(request);

  const lead = has('lead_capture');
  if (lead && leadInProgress(state)) {
    if (faq && isQuestion(text) && !hasLeadFacts(request)) {
      // Answer the side question, then pick the lead up where it was.
      const resumed = leadCapture({ ...request, message: { ...request.message, text: '' } });
      return { ...answerFromFaq(request, faq), text: `${faq.answer}\n\n${resumed.text}`, state: { ...resumed.state, unknownStreak: 0 } };
    }
    return leadCapture(request);
  }
  if (lead && wantsLeadCapture(text, request.customer)) return leadCapture(request);

  if (faq) return answerFromFaq(request, faq);
  if (THANKS.test(text)) return { text: "You're welcome! Is there anything else I can help you with?", skill: null, state };
  if (ACKNOWLEDGED.test(text)) return { text: 'Is there anything else I can help you with?', skill: null, state };
  if (GREETING_ONLY.test(text) || keywords(text).size === 0) return { text: acknowledgement(agent), skill: null, state };
  if (has('faq_responder')) return unknownQuestion(request);
  return { text: acknowledgement(agent), skill: null, state };
}

function acknowledgement(agent: AgentRecord): string {
  const offers = agent.skills.map((s) => SKILL_OFFERS[s]);
  const intro = `Thanks for your message! You're chatting with ${agent.name}.`;
  if (offers.length === 0) return `${intro} We have received it and will get back to you.`;
  return `${intro} I can ${listed(offers)}. How can I help you today?`;
}

function listed(items: string[]): string {
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
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
