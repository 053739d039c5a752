import { Topics, type MessageInboundEvent, type MessageStatusEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { startServiceUnderTest, type ServiceUnderTest } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { messagingServiceModule } from '../app.module';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { messagingServiceDatabase } from '../database/messaging-service.database';

/** messaging-service under test (libs/testing's harness), with probes on what it publishes. */
export interface MessagingServiceUnderTest extends ServiceUnderTest<MessagingServiceConfig> {
  /** What the service publishes, from its start: message.status, message.inbound and the WhatsApp webhook dead letters. */
  statuses: TopicProbe<MessageStatusEvent>;
  inbound: TopicProbe<MessageInboundEvent>;
  deadLetters: TopicProbe<unknown>;
}

/**
 * Boots the service the way integration specs need it: quiet logs, a fresh encryption key; `env` points it at the
 * specs' fake Cloud API servers and overrides any setting.
 */
export async function startMessagingService(label: string, env: Record<string, string> = {}): Promise<MessagingServiceUnderTest> {
  const service = await startServiceUnderTest(
    label,
    { database: messagingServiceDatabase, Config: MessagingServiceConfig, module: messagingServiceModule },
    { GRAPH_API_VERSION: 'v21.0', ENCRYPTION_KEY: randomBytes(32).toString('base64'), SMTP_PORT: '0', ...env },
  );
  const [statuses, inbound, deadLetters] = await Promise.all([
    service.kafka.probe<MessageStatusEvent>(Topics.MessageStatus),
    service.kafka.probe<MessageInboundEvent>(Topics.MessageInbound),
    service.kafka.probe<unknown>(`${Topics.WhatsappWebhook}.dlq`),
  ]);
  service.onClose(async () => void (await Promise.all([statuses.stop(), inbound.stop(), deadLetters.stop()])));
  return { ...service, statuses, inbound, deadLetters };
}
