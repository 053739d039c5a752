import type { INestApplication } from '@nestjs/common';
import {
  Topics,
  conversationKey,
  newId,
  type AgentChangedData,
  type AgentChangedEvent,
  type AgentRecord,
  type AppointmentBookedEvent,
  type ConversationHandoffEvent,
  type LeadCapturedEvent,
  type MessageInboundData,
  type MessageInboundEvent,
  type MessageOutboundEvent,
  type MessageReceivedEvent,
} from '@parley/contracts';
import { EventPublisher, type TopicProbe } from '@parley/kafka';
import { pollUntil, startServiceUnderTest, type KafkaHarness, type ServiceUnderTest, type TestDatabase } from '@parley/testing';
import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { responderServiceModule } from '../app.module';
import { ResponderServiceConfig } from '../config/responder-service.config';
import { responderServiceDatabase } from '../database/responder-service.database';

/** The business number customers write to in the tests. */
export const BUSINESS = '+4930000001';

const OPEN_ALL_DAY: [string, string][] = [['08:00', '20:00']];
/** Opening hours for booking tests: 08:00–20:00 on every day of the week. */
export const OPEN_EVERY_DAY = { mon: OPEN_ALL_DAY, tue: OPEN_ALL_DAY, wed: OPEN_ALL_DAY, thu: OPEN_ALL_DAY, fri: OPEN_ALL_DAY, sat: OPEN_ALL_DAY, sun: OPEN_ALL_DAY };

/** A probe on each topic responder-service publishes to. */
export interface ResponderOutputs {
  outbound: TopicProbe<MessageOutboundEvent>;
  received: TopicProbe<MessageReceivedEvent>;
  leads: TopicProbe<LeadCapturedEvent>;
  booked: TopicProbe<AppointmentBookedEvent>;
  handoffs: TopicProbe<ConversationHandoffEvent>;
}

/** responder-service under test (libs/testing's harness), with helpers that play the other services. */
export class ResponderHarness {
  readonly app: INestApplication;
  readonly db: TestDatabase;
  readonly kafka: KafkaHarness;
  readonly sql: DataSource;

  private constructor(private readonly service: ServiceUnderTest) {
    ({ app: this.app, db: this.db, kafka: this.kafka, sql: this.sql } = service);
  }

  /** `env` overrides the service's configuration (e.g. an LLM). */
  static async start(label: string, env: Record<string, string> = {}): Promise<ResponderHarness> {
    return new ResponderHarness(
      await startServiceUnderTest(label, { database: responderServiceDatabase, Config: ResponderServiceConfig, module: responderServiceModule }, env),
    );
  }

  /** Starts a probe on each topic the service publishes to; `close()` stops them. */
  async probeOutputs(): Promise<ResponderOutputs> {
    const [outbound, received, leads, booked, handoffs] = await Promise.all([
      this.kafka.probe<MessageOutboundEvent>(Topics.MessageOutbound),
      this.kafka.probe<MessageReceivedEvent>(Topics.MessageReceived),
      this.kafka.probe<LeadCapturedEvent>(Topics.LeadCaptured),
      this.kafka.probe<AppointmentBookedEvent>(Topics.AppointmentBooked),
      this.kafka.probe<ConversationHandoffEvent>(Topics.ConversationHandoff),
    ]);
    for (const probe of [outbound, received, leads, booked, handoffs]) this.service.onClose(() => probe.stop());
    return { outbound, received, leads, booked, handoffs };
  }

  close(): Promise<void> {
    return this.service.close();
  }

  /** Publishes an agent change as agent-service would, and waits until the read model shows it. */
  async announceAgent(tenantId: string, agent: AgentRecord): Promise<void> {
    await this.publishAgentChange({ tenant_id: tenantId, name: agent.name, agent_id: agent.id, version: agent.version, agent });
    await pollUntil(
      async () => {
        const rows: unknown[] = await this.sql.query(
          'SELECT 1 FROM agents WHERE tenant_id = $1 AND name = $2 AND agent_id = $3 AND version = $4 AND deleted_at IS NULL',
          [tenantId, agent.name, agent.id, agent.version],
        );
        return rows.length > 0;
      },
      { description: `agent ${agent.name} v${agent.version} in the read model` },
    );
  }

  /** Publishes an agent's deletion (at its last version) as agent-service would, and waits until the read model has its tombstone. */
  async announceDeletion(tenantId: string, agent: AgentRecord): Promise<void> {
    await this.publishAgentChange(agentDeletion(tenantId, agent));
    await pollUntil(
      async () => {
        const rows: unknown[] = await this.sql.query('SELECT 1 FROM agents WHERE tenant_id = $1 AND name = $2 AND agent_id = $3 AND deleted_at IS NOT NULL', [
          tenantId,
          agent.name,
          agent.id,
        ]);
        return rows.length > 0;
      },
      { description: `agent ${agent.name} (${agent.id}) deleted in the read model` },
    );
  }

  /** Publishes an agent change on the key agent-service uses (tenant and name), so changes of one name stay in order. */
  publishAgentChange(data: AgentChangedData): Promise<void> {
    const event: AgentChangedEvent = EventPublisher.envelope(Topics.AgentChanged, data.tenant_id, data);
    return this.kafka.publisher.publishEvent(event, `${data.tenant_id}:${data.name}`);
  }

  /** Publishes `message.inbound` as messaging-service would; the same envelope may be passed again to redeliver it. */
  async deliverInbound(event: MessageInboundEvent, requestId?: string): Promise<void> {
    await this.kafka.publisher.publishEvent(event, conversationKey(event.tenant_id!, event.data.from), requestId);
  }
}

/** `agent.changed` for an agent's deletion: no record, the agent's id and the last version it had. */
export function agentDeletion(tenantId: string, agent: AgentRecord): AgentChangedData {
  return { tenant_id: tenantId, name: agent.name, agent_id: agent.id, version: agent.version, agent: null };
}

export function agentRecord(name: string, overrides: Partial<AgentRecord> = {}): AgentRecord {
  const now = new Date().toISOString();
  return {
    id: newId('agt'),
    name,
    instruction: `You are ${name}.`,
    greeting: `Hello from ${name}!`,
    skills: ['faq_responder'],
    faqs: [],
    booking: null,
    version: 1,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A random E.164 number, so each test talks in conversations of its own. */
export function phoneNumber(): string {
  return `+1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

export function inboundEvent(tenantId: string, data: Partial<MessageInboundData> & Pick<MessageInboundData, 'from' | 'to' | 'text'>): MessageInboundEvent {
  const now = new Date().toISOString();
  const message: MessageInboundData = {
    message_id: newId('msg'),
    channel: 'whatsapp',
    channel_id: 'chn_01JCHANNEL0000000000000000',
    from_user_id: null,
    type: 'text',
    provider_message_id: `wamid.${newId('msg')}`,
    sent_at: now,
    received_at: now,
    channel_agent: null,
    contact_name: null,
    ...data,
  };
  return EventPublisher.envelope(Topics.MessageInbound, tenantId, message);
}
