import type { EventEnvelope } from './envelope';

export type Skill = 'faq_responder' | 'lead_capture' | 'appointment_booking';
export const SKILLS: readonly Skill[] = ['faq_responder', 'lead_capture', 'appointment_booking'];

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export interface Faq {
  question: string;
  answer: string;
}

export interface Booking {
  timezone: string;
  /** @apiType integer */
  slot_minutes: number;
  /** `{"mon": [["09:00","17:00"]], ...}`; a missing day is closed. */
  opening_hours: Partial<Record<Weekday, [string, string][]>>;
}

export const DEFAULT_BOOKING: Booking = {
  timezone: 'UTC',
  slot_minutes: 30,
  opening_hours: {
    mon: [['09:00', '17:00']],
    tue: [['09:00', '17:00']],
    wed: [['09:00', '17:00']],
    thu: [['09:00', '17:00']],
    fri: [['09:00', '17:00']],
  },
};

/** The public agent record (CONTRACT.md §3). */
export interface AgentRecord {
  /** @idPrefix agt */
  id: string;
  name: string;
  instruction: string;
  greeting: string;
  skills: Skill[];
  faqs: Faq[];
  booking: Booking | null;
  /** @apiType integer */
  version: number;
  created_at: string;
  updated_at: string;
}

/** `agent.changed`: the whole agent after a change, or `agent: null` when it was deleted. */
export interface AgentChangedData {
  tenant_id: string;
  name: string;
  /** The agent this change is about (also on deletions, so a late deletion never hides a newer agent of that name). */
  agent_id: string;
  /** The agent's version at the change; a deletion carries the last version it had. */
  version: number;
  agent: AgentRecord | null;
}

export type AgentChangedEvent = EventEnvelope<'agent.changed', AgentChangedData>;
