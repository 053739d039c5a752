import type { AgentRecord } from '@parley/contracts';
import type { DocumentPassage } from '../knowledge/document-passage';
import type { Meaning } from '../knowledge/knowledge-match';
import { DeterministicReplyEngine } from '../replies/deterministic-reply-engine';
import { OPT_CONFIRMATIONS, confirmationLanguage, optRequestOf, type OptChange } from '../replies/opt-out';
import type { BookingCalendar, ConversationTurn, Reply, ReplyEffects, SkillState } from '../replies/reply-engine';

/**
 * Drives the engine through a conversation the way RepliesService does (skill memory carried from reply to reply,
 * bookings applied to a calendar), without Kafka or a database: what the skill unit tests and the scripted fixture use.
 */
export class ConversationDriver {
  private readonly engine: DeterministicReplyEngine;
  state: SkillState = {};
  replies = 0;
  readonly leads: NonNullable<ReplyEffects['lead']>[] = [];
  readonly bookings: { startsAt: string; endsAt: string; status: 'booked' | 'cancelled' }[];
  /** The agent's document passages, as the responder's read model would give them. */
  documents: DocumentPassage[] = [];
  /** The conversation so far, oldest first, as RepliesService hands it to the engine. */
  readonly history: ConversationTurn[] = [];

  constructor(
    readonly agent: AgentRecord,
    public now: Date,
    readonly customer = '+447911123456',
    sharedBookings?: { startsAt: string; endsAt: string; status: 'booked' | 'cancelled' }[],
    meaning: Meaning | null = null,
  ) {
    this.bookings = sharedBookings ?? [];
    this.engine = new DeterministicReplyEngine(meaning);
  }

  private readonly calendar: BookingCalendar = {
    busy: (from, to) =>
      Promise.resolve(
        new Set(
          this.bookings
            .filter((b) => b.status === 'booked')
            .map((b) => Date.parse(b.startsAt))
            .filter((t) => t >= from.getTime() && t < to.getTime()),
        ),
      ),
  };

  /**
   * The agent's reply to one customer message. An opt-out or opt-in (optRequestOf) is answered as RepliesService
   * answers it, with its one-line confirmation and nothing else; `optChange` says which.
   */
  async say(text: string): Promise<Reply & { optChange?: OptChange }> {
    const opt = optRequestOf(text);
    if (opt) {
      const at = this.now.toISOString();
      const confirmation = OPT_CONFIRMATIONS[confirmationLanguage(opt, this.state.language)][opt.change];
      this.history.push({ role: 'customer', text, at }, { role: 'agent', text: confirmation, at });
      return { text: confirmation, skill: null, handoff: false, state: this.state, effects: {}, optChange: opt.change };
    }
    const reply = await this.engine.reply({
      tenantId: 'ten_driver',
      agent: this.agent,
      conversationHistory: [...this.history],
      firstReply: this.replies === 0,
      message: { text, type: 'text', contactName: null },
      customer: this.customer,
      state: this.state,
      now: this.now,
      calendar: this.calendar,
      documents: this.documents,
    });
    this.replies++;
    const at = this.now.toISOString();
    this.history.push({ role: 'customer', text, at }, { role: 'agent', text: reply.text, at });
    this.state = reply.state;
    if (reply.effects.lead) this.leads.push(reply.effects.lead);
    const appointment = reply.effects.appointment;
    // A move changes the booking in place (it keeps its id); a cancel marks it cancelled.
    const mine = (startsAt: string) => this.bookings.find((b) => b.startsAt === startsAt && b.status === 'booked');
    if (appointment) {
      const moved = appointment.replaces ? mine(appointment.replaces) : undefined;
      if (moved) Object.assign(moved, { startsAt: appointment.startsAt, endsAt: appointment.endsAt });
      else this.bookings.push({ startsAt: appointment.startsAt, endsAt: appointment.endsAt, status: 'booked' });
    }
    const cancelled = reply.effects.cancel ? mine(reply.effects.cancel.startsAt) : undefined;
    if (cancelled) cancelled.status = 'cancelled';
    return reply;
  }

  booked(): string[] {
    return this.bookings.filter((b) => b.status === 'booked').map((b) => b.startsAt);
  }
}
