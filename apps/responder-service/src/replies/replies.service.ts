import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Headers, notFoundProblem, type AgentRecord, type AgentTestResult, type AppointmentRecord, type MessageInboundData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { AgentsService } from '../agents/agents.service';
import { AppointmentsService } from '../appointments/appointments.service';
import { LeadsService } from '../leads/leads.service';
import type { ConversationEntity } from '../conversations/conversation.entity';
import { ConversationsService, type Turn } from '../conversations/conversations.service';
import { ProcessedMessageEntity } from './processed-message.entity';
import { ReplyEngine, type Reply, type ReplyRequest } from './reply-engine';
import { engagementEvents, replyEvents, replyMessageId, type ReplyOutcome } from './reply-events';

/** A message written longer ago than this is not answered (the customer-service window, CONTRACT.md §5). */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;
const PUBLISH_TIMEOUT_MS = 10_000;
/** A confirmation can meet a slot taken meanwhile; the engine then offers others, so a second attempt settles it. */
const MAX_BOOKING_ATTEMPTS = 3;
/** The customer a preview speaks as when the caller names none. */
const PREVIEW_CUSTOMER = '+15550000000';

export type SilenceReason = 'no_agent' | 'handed_off' | 'stale';

/**
 * Answers inbound customer messages, exactly once each.
 *
 * Handling one inbound message commits, in one transaction keyed by its message id, the conversation's turns and
 * the events to publish; publishing follows the commit. A redelivery finds the stored outcome and only publishes
 * what is not yet acknowledged, so a crash anywhere yields neither a second reply nor a lost one.
 *
 * The reply is computed inside the conversation's lock and transaction: the skills engine takes milliseconds, and
 * its effects (a lead, a booking under the slot's unique index) commit atomically with the reply. The burst rule
 * (CONTRACT.md §10) and a slow LLM will move the computation out of the transaction.
 */
@Injectable()
export class RepliesService {
  private readonly logger = new Logger(RepliesService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly agents: AgentsService,
    private readonly conversations: ConversationsService,
    private readonly engine: ReplyEngine,
    private readonly publisher: EventPublisher,
    private readonly leads: LeadsService,
    private readonly appointments: AppointmentsService,
  ) {}

  async handleInbound(tenantId: string, inbound: MessageInboundData, requestId: string): Promise<void> {
    const outcome = (await this.findProcessed(this.db.manager, tenantId, inbound.message_id)) ?? (await this.process(tenantId, inbound));
    if (!outcome.publishedAt) await this.publish(outcome, requestId);
  }

  /** What the agent would answer to one message (`POST /agents/{name}/test`): nothing is sent, stored or emitted. */
  async preview(tenantId: string, agentName: string, text: string, from: string | null): Promise<AgentTestResult> {
    const agent = await this.agents.liveAgent(tenantId, agentName);
    if (!agent) throw new ProblemException(notFoundProblem(`Agent "${agentName}"`));
    const reply = await this.engine.reply({
      agent,
      conversationHistory: [],
      firstReply: true,
      message: { text, type: 'text', contactName: null },
      customer: from ?? PREVIEW_CUSTOMER,
      state: {},
      now: new Date(),
      calendar: this.appointments.calendar(this.db.manager, tenantId, agent.name),
    });
    return { reply: reply.text, skill: reply.skill, handoff: reply.handoff };
  }

  private process(tenantId: string, inbound: MessageInboundData): Promise<ProcessedMessageEntity> {
    return this.db.transaction(async (tx) => {
      await this.conversations.lock(tx, tenantId, inbound.to, inbound.from);
      // A concurrent delivery of the same message (another instance, mid-rebalance) may have won the lock.
      const done = await this.findProcessed(tx, tenantId, inbound.message_id);
      if (done) return done;

      const receivedAt = new Date(inbound.received_at);
      const agent = await this.agents.answeringAgent(tenantId, inbound.channel_agent, tx);
      const conversation = await this.conversations.open(
        tx,
        tenantId,
        { channelId: inbound.channel_id, businessNumber: inbound.to, customer: inbound.from },
        receivedAt,
      );
      const history = await this.conversations.history(tx, tenantId, conversation.id);
      const silence = silenceReason(agent, conversation, inbound);
      const computed = agent && silence === null ? await this.compute(tx, tenantId, agent, conversation, history, inbound) : null;
      const reply = computed?.reply ?? null;

      const answered =
        agent && reply ? { agentName: agent.name, messageId: replyMessageId(inbound.message_id), text: reply.text, acceptedAt: new Date() } : null;
      const turns: Turn[] = [{ messageId: inbound.message_id, role: 'customer', text: inbound.text, at: receivedAt }];
      if (answered) turns.push({ messageId: answered.messageId, role: 'agent', text: answered.text, at: answered.acceptedAt });
      await this.conversations.record(tx, tenantId, conversation, turns, { handedOff: reply?.handoff ?? false, skillState: reply?.state });

      const events = replyEvents(tenantId, inbound, answered);
      if (agent && computed && answered) {
        const lead = computed.reply.effects.lead
          ? await this.leads.save(tx, tenantId, { conversationId: conversation.id, agentName: agent.name, customer: inbound.from, ...computed.reply.effects.lead })
          : null;
        const outcome: ReplyOutcome = {
          conversationId: conversation.id,
          agentName: agent.name,
          lead,
          appointment: computed.appointment,
          handoffReason: computed.reply.handoff ? (computed.reply.handoffReason ?? 'skill_gave_up') : null,
        };
        events.push(...engagementEvents(tenantId, inbound, outcome, answered.acceptedAt));
      }

      const handled = answered ? `replied ${answered.messageId} (skill ${reply?.skill ?? 'none'}${reply?.handoff ? ', handed off' : ''})` : `no reply (${silence})`;
      this.logger.log(`inbound ${inbound.message_id} in ${conversation.id}: ${handled}`);
      const repo = tx.getRepository(ProcessedMessageEntity);
      const outcome = repo.create({
        inboundMessageId: inbound.message_id,
        tenantId,
        conversationId: conversation.id,
        replyMessageId: answered?.messageId ?? null,
        events,
        publishedAt: null,
      });
      await repo.insert(outcome);
      return outcome;
    });
  }

  /**
   * The engine's reply, with its booking applied. A slot another conversation took meanwhile (the unique index says
   * so) is now busy in the calendar, so asking the engine again yields alternatives instead of a false confirmation.
   */
  private async compute(
    tx: EntityManager,
    tenantId: string,
    agent: AgentRecord,
    conversation: ConversationEntity,
    history: Turn[],
    inbound: MessageInboundData,
  ): Promise<{ reply: Reply; appointment: AppointmentRecord | null }> {
    const request: ReplyRequest = {
      agent,
      conversationHistory: history.map((t) => ({ role: t.role, text: t.text, at: t.at.toISOString() })),
      firstReply: conversation.replyCount === 0,
      message: { text: inbound.text, type: inbound.type, contactName: inbound.contact_name },
      customer: inbound.from,
      state: conversation.skillState ?? {},
      now: new Date(inbound.received_at),
      calendar: this.appointments.calendar(tx, tenantId, agent.name),
    };
    for (let attempt = 1; ; attempt++) {
      const reply = await this.engine.reply(request);
      const wanted = reply.effects.appointment;
      if (!wanted) return { reply, appointment: null };
      const appointment = await this.appointments.book(tx, tenantId, {
        agentName: agent.name,
        conversationId: conversation.id,
        customer: inbound.from,
        ...wanted,
      });
      if (appointment) return { reply, appointment };
      if (attempt >= MAX_BOOKING_ATTEMPTS) throw new Error(`the engine kept confirming taken slots for ${inbound.message_id}`);
    }
  }

  /** Publishes the stored events with their stored ids (consumers deduplicate), then marks them acknowledged. */
  private async publish(outcome: ProcessedMessageEntity, requestId: string): Promise<void> {
    await this.publisher.publish(
      outcome.events.map((e) => ({
        topic: e.topic,
        key: e.key,
        value: e.value,
        headers: { [Headers.RequestId]: requestId, [Headers.EventType]: e.value.type },
      })),
      { timeoutMs: PUBLISH_TIMEOUT_MS },
    );
    await this.db
      .getRepository(ProcessedMessageEntity)
      .update({ tenantId: outcome.tenantId, inboundMessageId: outcome.inboundMessageId }, { publishedAt: new Date() });
  }

  private findProcessed(manager: EntityManager, tenantId: string, inboundMessageId: string): Promise<ProcessedMessageEntity | null> {
    return manager.getRepository(ProcessedMessageEntity).findOne({ where: { tenantId, inboundMessageId } });
  }
}

/** Why the agent stays silent on a message, or null when it answers (CONTRACT.md §5, §6). */
export function silenceReason(agent: AgentRecord | null, conversation: ConversationEntity, inbound: MessageInboundData): SilenceReason | null {
  if (!agent) return 'no_agent';
  if (conversation.state === 'handed_off') return 'handed_off';
  if (Date.parse(inbound.received_at) - Date.parse(inbound.sent_at) > STALE_AFTER_MS) return 'stale';
  return null;
}
