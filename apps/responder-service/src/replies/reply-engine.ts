import type { AgentRecord, ChannelKind, InboundMessageType } from '@parley/contracts';
import type { DocumentPassage } from '../knowledge/document-passage';
import type { Language } from '../knowledge/language';
import type { LeadFacts, LeadField } from '../skills/lead-facts';

/** WhatsApp's limit on a text message's body. */
export const MAX_REPLY_CHARS = 4096;

export interface ConversationTurn {
  role: 'customer' | 'agent';
  text: string;
  at: string;
}

/**
 * What the skills remember about one conversation between replies (stored with the conversation). Engines treat it
 * as a value: they get it and return the next one; nothing else carries skill progress.
 */
export interface SkillState {
  /** The conversation's language so far: a short or ambiguous message ("ok", "10:30") keeps it. */
  language?: Language;
  lead?: {
    facts: LeadFacts;
    /** The field the agent just asked for: a bare answer ("Maria") counts as it. */
    asking: LeadField | null;
    /** Nothing more to ask. */
    done: boolean;
    /** The lead is stored (`lead.captured` sent): later details update it (`lead.updated`). */
    stored?: boolean;
    /** Fields the customer would not give ("no email"): not asked again. */
    declined?: LeadField[];
    /** The language the dialogue is held in: a bare email or number keeps it. */
    language?: Language;
  };
  booking?: {
    stage: 'choosing' | 'confirming' | 'booked';
    /** Slot starts (ISO) the agent offered, so "the second one" or "10:30" can pick one. */
    offered: string[];
    /** The slot the agent asked the customer to confirm. */
    pending: string | null;
    /** The slot booked in this conversation: a later change moves it. */
    booked: string | null;
    /** Consecutive messages the skill could not understand; it gives up to a human after a few. */
    misses: number;
  };
  /** The agent could not answer and offered a person: a "yes" then hands the conversation off. */
  humanOffered?: boolean;
  /** Consecutive questions the agent could not answer. */
  unknownStreak?: number;
}

/** The appointments the agent's calendar already holds (read-only: booking is an effect the caller applies). */
export interface BookingCalendar {
  /** Start instants (epoch ms) of booked slots in [from, to). */
  busy(from: Date, to: Date): Promise<Set<number>>;
}

/** What a reply asks the caller to do besides sending it (nothing when only previewing). */
export interface ReplyEffects {
  /**
   * The conversation's lead as now known (a name and a way to reach the person at least): stored and announced on
   * `lead.captured` the first time, on `lead.updated` when a later message changes it.
   */
  lead?: LeadFacts & { name: string };
  /**
   * A slot to book; `replaces` is the start (UTC) of this conversation's booking it moves: that appointment keeps its
   * id and gets the new times (`appointment.rescheduled`) instead of a new one being booked.
   */
  appointment?: { startsAt: string; endsAt: string; timezone: string; replaces: string | null };
  /** This conversation's booking starting at `startsAt` (UTC) is cancelled (`appointment.cancelled`). */
  cancel?: { startsAt: string };
}

export interface ReplyRequest {
  /** Whose customer this is (the LLM engine caps concurrent calls per tenant). */
  tenantId: string;
  agent: AgentRecord;
  /** Earlier turns of this conversation, oldest first (bounded memory; the message answered is not in it). */
  conversationHistory: ConversationTurn[];
  /** The agent has not replied in this conversation yet: the reply then opens with the agent's greeting. */
  firstReply: boolean;
  message: { text: string; type: InboundMessageType; contactName: string | null };
  /** The customer's number (E.164) or business-scoped id. */
  customer: string;
  /** Where the customer is: on a call (`voice`), handing over puts them through at once rather than "reply here". */
  channel?: ChannelKind;
  state: SkillState;
  now: Date;
  calendar: BookingCalendar;
  /** The agent's document passages (CONTRACT.md §11), ranked with its FAQs and instruction sentences. */
  documents?: DocumentPassage[];
}

/** A passage a reply used (CONTRACT.md §11 `sources` of the test route). */
export interface ReplySource {
  type: 'faq' | 'document' | 'instruction';
  id: string;
  title: string;
  excerpt: string;
  /** How sure the engine is that this passage answers (0..1), CONTRACT §20. */
  score?: number;
}

export interface Reply {
  text: string;
  /** The skill that produced the answer, or null for a general answer. */
  skill: string | null;
  /** The agent hands the conversation to a human: it stays silent until released. */
  handoff: boolean;
  handoffReason?: 'customer_asked_for_human' | 'skill_gave_up';
  /** The conversation's skill memory after this reply. */
  state: SkillState;
  effects: ReplyEffects;
  /** The knowledge the reply used; empty or absent when none. */
  sources?: ReplySource[];
  /** How sure the engine is of an answer from knowledge (0..1), CONTRACT §20; absent when no knowledge was used. */
  confidence?: number;
  /** The agent said it does not know: the question is a knowledge gap (CONTRACT.md §19). */
  notKnown?: boolean;
}

/**
 * What produces the agent's reply. The skills engine is deterministic and needs no LLM; the OpenAI-compatible LLM
 * engine (LLM_BASE_URL, or the tenant's own, CONTRACT.md §16) calls the same skill code as tools and falls back to the
 * skills engine.
 *
 * An abstract class rather than an interface so that it can be the Nest injection token.
 */
export abstract class ReplyEngine {
  /**
   * Replies within milliseconds, calling nothing remote: its reply can be drafted under the conversation's lock. An
   * engine that may take seconds (an LLM) drafts outside any transaction and has the commit check its snapshot instead.
   */
  readonly answersAtOnce: boolean = false;

  /** Whether this engine answers the tenant's next message at once (an engine choosing per tenant says per tenant). */
  answersAtOnceFor(_tenantId: string): Promise<boolean> {
    return Promise.resolve(this.answersAtOnce);
  }

  abstract reply(request: ReplyRequest): Promise<Reply>;
}

/** Applies the conversation rule every engine shares: the first reply opens with the greeting. Capped to one message. */
export function composeReply(agent: AgentRecord, firstReply: boolean, answer: string): string {
  const greeting = agent.greeting.trim();
  const text = firstReply && greeting ? `${greeting}\n\n${answer}` : answer;
  return text.length <= MAX_REPLY_CHARS ? text : `${text.slice(0, MAX_REPLY_CHARS - 1)}…`;
}
