import type { AgentRecord, AgentVersionRecord, AgentVersionSummary, Booking, Faq, Skill, UpsertAgentBody } from '@parley/contracts';
import type { AgentEntity, AgentVersionEntity } from './agent.entity';

/** The stored, comparable form of a PUT body: omitted optional parts are cleared (PUT replaces). */
export interface AgentBody {
  name: string;
  instruction: string;
  greeting: string;
  skills: Skill[];
  faqs: Faq[];
  booking: Booking | null;
}

export function agentBody(dto: UpsertAgentBody): AgentBody {
  return {
    name: dto.name,
    instruction: dto.instruction,
    greeting: dto.greeting,
    skills: [...dto.skills],
    faqs: (dto.faqs ?? []).map((f) => ({ question: f.question, answer: f.answer })),
    booking: dto.booking
      ? { timezone: dto.booking.timezone, slot_minutes: dto.booking.slot_minutes, opening_hours: structuredClone(dto.booking.opening_hours) }
      : null,
  };
}

/** FAQs an agent may hold (UpsertAgentBody's limit). */
export const MAX_FAQS = 500;

/**
 * The body of a live agent with FAQs added (a knowledge gap answered): an FAQ whose question it has already (case,
 * spacing and end punctuation ignored) takes the new answer in its place; the others are appended. The agent answers
 * from FAQs only with `faq_responder`, which is added when missing: answering a gap means the agent should answer it.
 */
export function withFaqs(entity: AgentEntity, added: readonly Faq[]): AgentBody {
  const key = (question: string) => question.toLowerCase().replace(/[\s?¿!¡.]+/g, ' ').trim();
  const faqs = entity.faqs.map((f) => ({ question: f.question, answer: f.answer }));
  for (const faq of added) {
    const same = faqs.findIndex((f) => key(f.question) === key(faq.question));
    if (same >= 0) faqs[same] = { question: faqs[same].question, answer: faq.answer };
    else faqs.push({ question: faq.question, answer: faq.answer });
  }
  const skills: Skill[] = entity.skills.includes('faq_responder') ? [...entity.skills] : [...entity.skills, 'faq_responder'];
  return { name: entity.name, instruction: entity.instruction, greeting: entity.greeting, skills, faqs, booking: entity.booking };
}

/** Whether a PUT would change nothing (then the version stays). Skills compare as a set. */
export function sameBody(entity: AgentEntity, body: AgentBody): boolean {
  const skills = (s: Skill[]) => [...s].sort().join(',');
  return (
    entity.instruction === body.instruction &&
    entity.greeting === body.greeting &&
    skills(entity.skills) === skills(body.skills) &&
    JSON.stringify(entity.faqs) === JSON.stringify(body.faqs) &&
    JSON.stringify(entity.booking) === JSON.stringify(body.booking)
  );
}

export function toAgentRecord(entity: AgentEntity): AgentRecord {
  return {
    id: entity.id,
    name: entity.name,
    instruction: entity.instruction,
    greeting: entity.greeting,
    skills: entity.skills,
    faqs: entity.faqs,
    booking: entity.booking,
    version: entity.version,
    created_at: entity.createdAt.toISOString(),
    updated_at: entity.updatedAt.toISOString(),
  };
}

export function toVersionSummary(entity: AgentVersionEntity): AgentVersionSummary {
  return { version: entity.version, created_at: entity.createdAt.toISOString() };
}

/** The version with the exact body it was set with, so PUT of that body rolls the agent back. */
export function toVersionRecord(entity: AgentVersionEntity): AgentVersionRecord {
  const body = entity.body as unknown as AgentBody;
  return {
    ...toVersionSummary(entity),
    body: { name: body.name, instruction: body.instruction, greeting: body.greeting, skills: body.skills, faqs: body.faqs, booking: body.booking },
  };
}
