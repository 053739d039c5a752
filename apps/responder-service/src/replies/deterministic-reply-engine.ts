import { Injectable } from '@nestjs/common';
import type { AgentRecord, Skill } from '@parley/contracts';
import { ReplyEngine, composeReply, type Reply, type ReplyRequest } from './reply-engine';
import { bestFaq } from './text-match';

const SKILL_OFFERS: Record<Skill, string> = {
  faq_responder: 'answer your questions',
  lead_capture: 'pass your details to our team',
  appointment_booking: 'book an appointment for you',
};

/**
 * Replies without an LLM: a matching FAQ's answer, else a short acknowledgement that says who is answering and
 * what it can do. A pure function of its input: the same request always gets the same reply.
 */
@Injectable()
export class DeterministicReplyEngine extends ReplyEngine {
  reply(request: ReplyRequest): Promise<Reply> {
    const { agent, firstReply, message } = request;
    const faq = agent.faqs.length > 0 ? bestFaq(agent.faqs, message.text) : null;
    const answer = faq ? faq.answer : acknowledgement(agent);
    return Promise.resolve({ text: composeReply(agent, firstReply, answer), skill: faq ? 'faq_responder' : null, handoff: false });
  }
}

function acknowledgement(agent: AgentRecord): string {
  const offers = agent.skills.map((s) => SKILL_OFFERS[s]);
  const intro = `Thanks for your message! You're chatting with ${agent.name}.`;
  if (offers.length === 0) return `${intro} We have received it and will get back to you.`;
  return `${intro} I can ${listed(offers)}. Could you tell me a little more about what you need?`;
}

function listed(items: string[]): string {
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
