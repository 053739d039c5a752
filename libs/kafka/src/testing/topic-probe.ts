import type { Consumer, KafkaMessage } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import type { KafkaConnection } from '../kafka-connection';

export interface ProbedMessage<T = unknown> {
  key: string | null;
  value: T;
  headers: Record<string, string>;
  partition: number;
}

/**
 * Test helper: reads a topic from its start with a throwaway group and keeps every message, so a test can wait
 * for what a service published (with a deadline, through `pollUntil`).
 */
export class TopicProbe<T = unknown> {
  readonly messages: ProbedMessage<T>[] = [];
  private consumer?: Consumer;

  constructor(
    private readonly connection: KafkaConnection,
    private readonly topic: string,
  ) {}

  async start(): Promise<this> {
    await this.connection.ensureTopics();
    const consumer = this.connection.consumer({
      groupId: this.connection.group(`probe-${randomUUID()}`),
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
      // stopping waits for the fetch in flight; kafkajs's default (5 s) would make each probe's stop that long
      maxWaitTimeInMs: 250,
    });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.connect();
    await consumer.subscribe({ topic: this.connection.topic(this.topic), fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message, partition }) => void this.messages.push(decode<T>(message, partition)) });
    await joined;
    this.consumer = consumer;
    return this;
  }

  find(predicate: (m: ProbedMessage<T>) => boolean): ProbedMessage<T> | undefined {
    return this.messages.find(predicate);
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}

function decode<T>(message: KafkaMessage, partition: number): ProbedMessage<T> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(message.headers ?? {})) if (v !== undefined) headers[k] = String(Array.isArray(v) ? v[0] : v);
  return { key: message.key?.toString() ?? null, value: JSON.parse(message.value?.toString() ?? 'null') as T, headers, partition };
}
