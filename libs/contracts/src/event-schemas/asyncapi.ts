import { EVENT_ROUTES, type EventTopic } from '../events/catalog';
import { Headers } from '../events/envelope';
import { DLQ_SUFFIX, RPC_REPLY_TOPIC, RpcTopics, TOPIC_SPECS, type TopicSpec } from '../topics';
import type { JsonSchema } from './json-schema';

const KAFKA_BINDING_VERSION = '0.5.0';

/** Kafka headers on every event (EventPublisher.publishEvent). */
const EVENT_HEADERS: JsonSchema = {
  type: 'object',
  properties: {
    [Headers.RequestId]: { type: 'string', description: 'The x-request-id of the HTTP request that caused the event (absent for events no request caused).' },
    [Headers.EventType]: { type: 'string', description: 'The envelope type, so a consumer can route without parsing the body.' },
  },
};

const RPC_REQUEST_HEADERS: JsonSchema = {
  type: 'object',
  required: [Headers.RpcPattern, Headers.CorrelationId, Headers.ReplyTopic],
  properties: {
    [Headers.RpcPattern]: { type: 'string', description: 'The request-reply pattern, e.g. `agents.create` (libs/contracts/src/rpc).' },
    [Headers.CorrelationId]: { type: 'string', description: 'Matches the reply to the waiting caller.' },
    [Headers.ReplyTopic]: { type: 'string', const: RPC_REPLY_TOPIC },
    [Headers.RequestId]: { type: 'string' },
    deadline: { type: 'string', description: 'Epoch milliseconds after which the caller no longer waits; the handler skips expired requests.' },
  },
};

const RPC_REPLY_HEADERS: JsonSchema = {
  type: 'object',
  required: [Headers.CorrelationId],
  properties: { [Headers.CorrelationId]: { type: 'string' }, [Headers.RequestId]: { type: 'string' } },
};

const DLQ_HEADERS: JsonSchema = {
  type: 'object',
  properties: {
    ...EVENT_HEADERS.properties,
    [Headers.DlqError]: { type: 'string', description: 'Why the handler gave up (first 1000 characters).' },
    [Headers.DlqSourceTopic]: { type: 'string' },
    [Headers.DlqAttempts]: { type: 'string', description: 'How many times the handler tried.' },
  },
};

/** Request and reply bodies are typed per pattern in libs/contracts/src/rpc (RpcPatterns); here only their frame. */
const RPC_REQUEST_PAYLOAD: JsonSchema = {
  type: 'object',
  description: 'The request of the pattern named in the `rpc-pattern` header (RpcPatterns[pattern].request); always carries `tenant_id`.',
};
const RPC_REPLY_PAYLOAD: JsonSchema = {
  description: 'RpcResult: the response of the pattern, or the problem the gateway answers with.',
  anyOf: [
    { type: 'object', required: ['ok', 'data'], properties: { ok: { const: true }, data: {} } },
    { type: 'object', required: ['ok', 'problem'], properties: { ok: { const: false }, problem: { type: 'object' } } },
  ],
};

export interface AsyncApiEvent {
  topic: string;
  schema: JsonSchema;
}

/**
 * The AsyncAPI 3.0 document of every topic in TOPIC_SPECS: events (payload = the generated envelope schema),
 * request-reply topics and dead letters. docs/asyncapi.yaml is this, serialized; a test keeps them equal.
 */
export function buildAsyncApiDocument(events: AsyncApiEvent[]): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const byTopic = new Map(events.map((e) => [e.topic, e.schema]));

  for (const spec of TOPIC_SPECS) {
    const messageId = messageIdOf(spec.name);
    channels[spec.name] = {
      address: spec.name,
      title: spec.name,
      description: describeTopic(spec.name),
      messages: { [messageId]: { $ref: `#/components/messages/${messageId}` } },
      bindings: { kafka: channelBinding(spec) },
    };
  }

  for (const { topic, schema } of events) {
    const route = EVENT_ROUTES[topic as EventTopic];
    const { $schema: _draft, title: _title, ...payload } = schema;
    schemas[topic] = payload;
    messages[messageIdOf(topic)] = {
      name: topic,
      title: String(schema.title ?? topic),
      summary: route.summary,
      contentType: 'application/json',
      headers: EVENT_HEADERS,
      payload: { $ref: `#/components/schemas/${topic}` },
      bindings: { kafka: { key: { type: 'string', description: route.key }, bindingVersion: KAFKA_BINDING_VERSION } },
    };
    for (const producer of route.producers) operations[`${producer}.send.${topic}`] = operation('send', topic, producer);
    for (const consumer of route.consumers) operations[`${consumer}.receive.${topic}`] = operation('receive', topic, consumer);
  }

  for (const [service, topic] of Object.entries(RpcTopics)) {
    messages[messageIdOf(topic)] = {
      name: topic,
      summary: `A request-reply call to ${topic.replace('rpc.', '')} (${service} patterns).`,
      contentType: 'application/json',
      headers: RPC_REQUEST_HEADERS,
      payload: RPC_REQUEST_PAYLOAD,
      bindings: { kafka: { key: { type: 'string', description: 'The correlation id.' }, bindingVersion: KAFKA_BINDING_VERSION } },
    };
    operations[`gateway.send.${topic}`] = { ...operation('send', topic, 'gateway'), reply: { channel: { $ref: `#/channels/${RPC_REPLY_TOPIC}` } } };
    operations[`${topic.replace('rpc.', '')}.receive.${topic}`] = operation('receive', topic, topic.replace('rpc.', ''));
  }
  messages[messageIdOf(RPC_REPLY_TOPIC)] = {
    name: RPC_REPLY_TOPIC,
    summary: 'The reply to a request-reply call. Each caller process reads every reply with a consumer group of its own and keeps those it waits for.',
    contentType: 'application/json',
    headers: RPC_REPLY_HEADERS,
    payload: RPC_REPLY_PAYLOAD,
    bindings: { kafka: { key: { type: 'string', description: 'The correlation id of the request.' }, bindingVersion: KAFKA_BINDING_VERSION } },
  };
  operations[`gateway.receive.${RPC_REPLY_TOPIC}`] = operation('receive', RPC_REPLY_TOPIC, 'gateway');

  for (const spec of TOPIC_SPECS.filter((s) => s.name.endsWith(DLQ_SUFFIX))) {
    const source = spec.name.slice(0, -DLQ_SUFFIX.length);
    messages[messageIdOf(spec.name)] = {
      name: spec.name,
      summary: `A ${source} message its consumer gave up on after bounded retries, as it was, with why in the headers.`,
      contentType: 'application/json',
      headers: DLQ_HEADERS,
      payload: byTopic.has(source) ? { $ref: `#/components/schemas/${source}` } : {},
      bindings: { kafka: { key: { type: 'string', description: `The key of the ${source} message.` }, bindingVersion: KAFKA_BINDING_VERSION } },
    };
  }

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Parley events',
      version: '1.0.0',
      description:
        'Every Kafka topic of the platform. Generated by `npm run contracts:generate` from libs/contracts ' +
        '(TOPIC_SPECS, EVENT_ROUTES and the event types); do not edit by hand. Every event is an envelope ' +
        '`{id, type, version, tenant_id, occurred_at, data}`; consumers are idempotent on `id`; within a `version` only ' +
        'optional fields are ever added (libs/contracts/schemas, checked in CI).',
    },
    defaultContentType: 'application/json',
    servers: {
      local: { host: '127.0.0.1:9092', protocol: 'kafka', description: 'The development broker (tools/kafka, or docker/compose.yaml).' },
    },
    channels,
    operations,
    components: { messages, schemas },
  };
}

function operation(action: 'send' | 'receive', topic: string, service: string): Record<string, unknown> {
  return {
    action,
    title: `${service} ${action === 'send' ? 'produces' : 'consumes'} ${topic}`,
    channel: { $ref: `#/channels/${topic}` },
    messages: [{ $ref: `#/channels/${topic}/messages/${messageIdOf(topic)}` }],
  };
}

function channelBinding(spec: TopicSpec): Record<string, unknown> {
  const topicConfiguration: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(spec.config ?? {})) {
    topicConfiguration[name] = name === 'cleanup.policy' ? value.split(',') : Number(value);
  }
  return {
    topic: spec.name,
    partitions: spec.partitions,
    ...(Object.keys(topicConfiguration).length ? { topicConfiguration } : {}),
    bindingVersion: KAFKA_BINDING_VERSION,
  };
}

function describeTopic(topic: string): string {
  if (topic in EVENT_ROUTES) return EVENT_ROUTES[topic as EventTopic].summary;
  if (topic === RPC_REPLY_TOPIC) return 'Replies to request-reply calls.';
  if (topic.endsWith(DLQ_SUFFIX)) return `Dead letters of ${topic.slice(0, -DLQ_SUFFIX.length)}.`;
  return `Request-reply calls to ${topic.replace('rpc.', '')}.`;
}

/** Message ids must be plain names: `message.outbound` → `messageOutbound`, `rpc.agent-service` → `rpcAgentService`. */
function messageIdOf(topic: string): string {
  return topic.replace(/[.-](\w)/g, (_, c: string) => c.toUpperCase());
}
