import type { Skill } from '@parley/contracts';
import { DateTime } from 'luxon';
import type { ReplyEffects, ReplyRequest, SkillState } from '../replies/reply-engine';
import { BOOKING_HORIZON_DAYS, bookingOf, checkSlot, describeHours, freeSlots, hasWhen, localDay, parseWhen, type SlotCheck } from '../skills/calendar';
import { leadProgress, phoneOf } from '../skills/lead-capture.skill';
import { LEAD_FIELDS, extractLeadFacts, type LeadFacts, type LeadField } from '../skills/lead-facts';
import type { RankedPassage } from './knowledge-passage';
import { LlmCallError, type ChatTool } from './openai.client';

/** Slots one `find_free_slots` call lists. */
const SLOTS_LISTED = 6;
/** Passages one `search_knowledge` call returns. */
const PASSAGES_LISTED = 4;

/** Retrieval of the agent's knowledge for a query (the same the prompt's passages come from). */
export type SearchKnowledge = (query: string) => Promise<readonly RankedPassage[]>;

type Args = Record<string, unknown>;

interface SkillTool {
  skill: Skill | null;
  definition: ChatTool['function'];
  run(session: ToolSession, args: Args): Promise<unknown>;
}

/**
 * One reply's tool calls. The tools are the deterministic skills' own functions (knowledge retrieval, lead fact
 * reading, slot arithmetic over the agent's calendar); like the skills, they change only this session's copy of the
 * skill memory and collect effects (a lead, a booking) that the caller applies once the reply is final, so a failed or
 * abandoned LLM run leaves nothing behind.
 */
export class ToolSession {
  state: SkillState;
  readonly effects: ReplyEffects = {};
  handoff: 'customer_asked_for_human' | 'skill_gave_up' | null = null;
  /** The skill of the last tool that did something, reported like the deterministic engine's. */
  skill: Skill | null = null;
  /** A tool other than the knowledge search did something (saved details, listed or booked slots, handed off). */
  acted = false;
  /** Every passage the model has been given, by id: the prompt's and each search's. Only these may be cited. */
  readonly given = new Map<string, RankedPassage>();

  constructor(
    readonly request: ReplyRequest,
    readonly searchKnowledge: SearchKnowledge = () => Promise.resolve([]),
    passages: readonly RankedPassage[] = [],
  ) {
    this.state = structuredClone(request.state);
    for (const p of passages) this.given.set(p.id, p);
  }

  /** The tools the agent's skills allow, in the wire format (a person can always be asked for). */
  tools(): ChatTool[] {
    return this.available().map((t) => ({ type: 'function', function: t.definition }));
  }

  /**
   * Runs one call. A malformed call (a tool not offered, arguments that are not a JSON object) is the model failing:
   * LlmCallError, and the deterministic engine answers. A well-formed call the skill refuses (an invalid email, a taken
   * slot) answers the model with the reason, which it can act on.
   */
  async call(name: string, rawArguments: string): Promise<unknown> {
    const tool = this.available().find((t) => t.definition.name === name);
    if (!tool) throw new LlmCallError(`malformed tool call: "${name.slice(0, 64)}" is not a tool offered`, null);
    let args: unknown;
    try {
      args = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
    } catch {
      args = null;
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new LlmCallError(`malformed tool call: ${name}'s arguments are not a JSON object`, null);
    const result = await tool.run(this, args as Args);
    if (!(result as { error?: unknown }).error) {
      if (tool.skill) this.skill = tool.skill;
      if (tool.definition.name !== SEARCH_KNOWLEDGE) this.acted = true;
    }
    return result;
  }

  private available(): SkillTool[] {
    return TOOLS.filter((t) => t.skill === null || this.request.agent.skills.includes(t.skill));
  }
}

const SEARCH_KNOWLEDGE = 'search_knowledge';

const TOOLS: SkillTool[] = [
  {
    skill: 'faq_responder',
    definition: {
      name: SEARCH_KNOWLEDGE,
      description:
        "Searches the business's knowledge (FAQs, documents, the business's own facts) when the passages you were given do not answer. " +
        'Returns passages with ids; answer only from passages and cite their ids in square brackets.',
      parameters: objectSchema({ query: { type: 'string', description: 'What to look up, in the words the business would use.' } }, ['query']),
    },
    run: async (session, args) => {
      const query = text(args.query);
      if (!query) return { error: 'query is required' };
      const passages = (await session.searchKnowledge(query)).slice(0, PASSAGES_LISTED);
      for (const p of passages) session.given.set(p.id, p);
      const listed = passages.map((p) => ({ id: p.id, type: p.type, title: p.title, text: p.text }));
      return listed.length > 0 ? { passages: listed } : { passages: listed, note: 'Nothing in the knowledge answers this. Say you do not know and offer to connect a person.' };
    },
  },
  {
    skill: 'lead_capture',
    definition: {
      name: 'save_lead_details',
      description:
        "Saves the customer's contact details for the sales team. Pass only what the customer said; call again with corrections. " +
        'The lead is passed on once a name and one way to reach the person are known (their WhatsApp number counts), and ' +
        'updated with each later detail; ask for ask_next, one question at a time.',
      parameters: objectSchema({
        name: { type: 'string' },
        email: { type: 'string' },
        phone: { type: 'string', description: 'As written by the customer; their WhatsApp number is used when they give none.' },
        interest: { type: 'string', description: 'What they are interested in.' },
      }),
    },
    run: (session, args) => Promise.resolve(saveLeadDetails(session, args)),
  },
  {
    skill: 'appointment_booking',
    definition: {
      name: 'find_free_slots',
      description: 'Lists free appointment slots inside opening hours, from the given day on (or from now).',
      parameters: objectSchema({ day: { type: 'string', description: 'A day in words or ISO ("tomorrow", "Thursday", "2026-11-26"); omit for the earliest.' } }),
    },
    run: (session, args) => findFreeSlots(session, text(args.day)),
  },
  {
    skill: 'appointment_booking',
    definition: {
      name: 'book_appointment',
      description:
        'Books one slot (moving the booking already made in this conversation, if any). Only after the customer confirmed that exact slot.',
      parameters: objectSchema(
        { start: { type: 'string', description: 'The slot start as an ISO local date-time in the business timezone, e.g. 2026-11-26T14:00.' } },
        ['start'],
      ),
    },
    run: (session, args) => bookAppointment(session, text(args.start)),
  },
  {
    skill: null,
    definition: {
      name: 'transfer_to_human',
      description: 'Hands the conversation to a person from the team when the customer asks for one or you cannot help.',
      parameters: objectSchema({ reason: { type: 'string' } }),
    },
    run: (session, args) => {
      session.handoff = /customer|asked|request/i.test(text(args.reason) ?? '') ? 'customer_asked_for_human' : 'skill_gave_up';
      return Promise.resolve({ transferred: true, note: 'Tell the customer a person from the team will reply here.' });
    },
  },
];

/**
 * The lead skill's own reading of each field (libphonenumber for phones, the email pattern), merged into its memory as
 * the skill merges it: the lead is an effect once a name and a way to reach the person are known, and on each change.
 */
function saveLeadDetails(session: ToolSession, args: Args): unknown {
  const customerNumber = phoneOf(session.request.customer);
  const previous = session.state.lead ?? { facts: {}, asking: null, done: false };
  const said: LeadFacts = {};
  const invalid: Partial<Record<LeadField, string>> = {};
  for (const field of LEAD_FIELDS) {
    const value = text(args[field]);
    if (!value) continue;
    if (field === 'email' || field === 'phone') {
      const read = extractLeadFacts(value, { customerNumber })[field];
      if (read) said[field] = read;
      else invalid[field] = field === 'email' ? 'not an email address' : 'not a phone number';
    } else if (value.length <= 200) said[field] = value;
    else invalid[field] = 'too long';
  }
  const { facts, next, stored, effects } = leadProgress(previous, said, customerNumber);
  session.state = { ...session.state, lead: { ...previous, facts, asking: next, done: next === null, stored } };
  if (effects) Object.assign(session.effects, effects);
  return { saved: facts, invalid, missing: LEAD_FIELDS.filter((f) => !facts[f]), ask_next: next, passed_to_team: stored };
}

async function findFreeSlots(session: ToolSession, day: string | null): Promise<unknown> {
  const { booking, zone, nowLocal, request } = calendarOf(session);
  const when = day ? parseWhen(isoDay(day), zone, request.now) : null;
  if (day && !when?.date) return { error: `could not read "${day}" as a day` };
  const from = when?.date ? DateTime.max(localDay(when.date, zone), nowLocal) : nowLocal;
  const busy = await busyFrom(session);
  return {
    timezone: zone,
    opening_hours: describeHours(booking),
    slot_minutes: booking.slot_minutes,
    free_slots: freeSlots(booking, from, request.now, busy, SLOTS_LISTED).map((s) => s.toFormat("yyyy-MM-dd'T'HH:mm")),
  };
}

async function bookAppointment(session: ToolSession, start: string | null): Promise<unknown> {
  const { booking, zone, request } = calendarOf(session);
  const slot = start ? slotOf(start, zone, request.now) : null;
  if (!slot) return { booked: false, error: 'start must be a date and time, e.g. 2026-11-26T14:00' };
  const busy = await busyFrom(session);
  const check: SlotCheck = checkSlot(booking, slot, request.now, busy);
  if (check !== 'ok') {
    return {
      booked: false,
      reason: check,
      opening_hours: describeHours(booking),
      alternatives: freeSlots(booking, slot.startOf('day'), request.now, busy, 3, slot).map((s) => s.toFormat("yyyy-MM-dd'T'HH:mm")),
    };
  }
  const end = slot.plus({ minutes: booking.slot_minutes });
  const previous = session.state.booking;
  const replaces = previous?.booked ? DateTime.fromISO(previous.booked, { setZone: true }).toUTC().toISO() : null;
  session.effects.appointment = { startsAt: slot.toUTC().toISO()!, endsAt: end.toUTC().toISO()!, timezone: zone, replaces };
  session.state = {
    ...session.state,
    booking: { stage: 'booked', offered: [], pending: null, booked: slot.toISO()!, misses: 0 },
  };
  return { booked: true, starts_at: slot.toFormat("yyyy-MM-dd'T'HH:mm"), ends_at: end.toFormat("yyyy-MM-dd'T'HH:mm"), timezone: zone, moved: replaces !== null };
}

function calendarOf(session: ToolSession) {
  const booking = bookingOf(session.request.agent.booking);
  const zone = booking.timezone;
  return { booking, zone, request: session.request, nowLocal: DateTime.fromJSDate(session.request.now, { zone }) };
}

function busyFrom(session: ToolSession): Promise<Set<number>> {
  const { nowLocal, request } = calendarOf(session);
  return request.calendar.busy(request.now, nowLocal.plus({ days: BOOKING_HORIZON_DAYS + 1 }).toJSDate());
}

/** An ISO local date-time in the agent's zone, or free text ("thursday 2pm") read like the booking skill reads it. */
function slotOf(start: string, zone: string, now: Date): DateTime | null {
  const iso = DateTime.fromISO(start, { zone });
  if (iso.isValid && /T\d/.test(start)) return iso.set({ second: 0, millisecond: 0 });
  const when = parseWhen(start, zone, now);
  if (!hasWhen(when) || !when.date || !when.time) return null;
  return localDay(when.date, zone).set({ hour: when.time.hour, minute: when.time.minute });
}

/** chrono reads "2026-11-26" fine but not every ISO variant a model writes; keep the date part. */
function isoDay(day: string): string {
  return /^\d{4}-\d{2}-\d{2}/.test(day) ? day.slice(0, 10) : day;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function objectSchema(properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false };
}
