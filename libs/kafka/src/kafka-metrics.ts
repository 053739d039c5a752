import { Counter } from 'prom-client';
import type { Consumer, Producer } from 'kafkajs';

// What a service asks of Kafka, counted on /metrics: `npm run bench -- cost` divides these by the messages carried
// (issue 33's table), as it does PostgreSQL statements. Counts, unlike CPU timings, do not move with the machine's other
// load, so a change to how events are fetched, committed or skipped shows as a row that fell.
const requests = new Counter({
  name: 'kafka_requests_total',
  help: 'Requests this process sent to the Kafka brokers, by API (Fetch, Produce, OffsetCommit, Heartbeat, ...).',
  labelNames: ['api'],
});
const consumed = new Counter({
  name: 'kafka_records_consumed_total',
  help: 'Records fetched and handed over by this process\'s consumers, by topic (logical name), whether or not they were its own.',
  labelNames: ['topic'],
});

const skipped = new Counter({
  name: 'kafka_records_skipped_total',
  help: 'Records a consumer acknowledged unread, by topic: a routing header said they were not its own (SkipUnreadWhen).',
  labelNames: ['topic'],
});

/** Counts a record acknowledged unread (`SkipUnreadWhen`). */
export function countSkipped(topic: string): void {
  skipped.inc({ topic });
}

/** Counts every request `producer` sends (kafkajs's instrumentation event: one per request, not per record). */
export function countProducerRequests(producer: Producer): void {
  producer.on(producer.events.REQUEST, ({ payload }) => requests.inc({ api: payload.apiName }));
}

/**
 * Counts every request `consumer` sends and the records of each batch as it hands it over, by logical topic (`logical`
 * strips the run's namespace): every consumer of the process, the event consumers' and the RPC replies' alike.
 */
export function countConsumerWork(consumer: Consumer, logical: (topic: string) => string): void {
  consumer.on(consumer.events.REQUEST, ({ payload }) => requests.inc({ api: payload.apiName }));
  consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) => consumed.inc({ topic: logical(payload.topic) }, payload.batchSize));
}
