export const KAFKA_OPTIONS = Symbol('KAFKA_OPTIONS');

export interface KafkaOptions {
  /** `host:port` list (KAFKA_BROKERS). */
  brokers: string[];
  /** Names this process to the broker, e.g. `gateway`. */
  clientId: string;
  /** Consumer group of the service's event and request consumers. Defaults to `clientId`. */
  groupId?: string;
  /**
   * Prefixed to every topic and group name. Empty in normal runs; tests set a unique one so several test runs
   * (and a development stack) can share one broker without reading each other's messages.
   */
  namespace?: string;
  /**
   * How long the broker holds a consumer's fetch when there is nothing to read (kafkajs's default: 5000 ms). Stopping a
   * consumer waits for its fetch in flight, so this bounds how long shutdown takes; tests, which stop services many
   * times, set it short. New messages end the wait at once whatever its length.
   */
  fetchMaxWaitMs?: number;
  /** Partitions of one consumer processed concurrently (ordering holds within a partition). */
  partitionsConsumedConcurrently?: number;
  /**
   * Key groups of one fetched partition batch a `BatchByKey` handler works on at once (default 64). A key's messages
   * are always in one group, in order; commits never pass a message not yet handled.
   */
  batchGroupsConcurrently?: number;
  /**
   * How long handled offsets may wait before they are committed (default 1000 ms). Commits are batched per consumer
   * over this interval instead of one per fetched batch; a crash replays at most this much handled work (handlers are
   * idempotent), a rebalance or shutdown commits first.
   */
  commitIntervalMs?: number;
  /** Attempts of a failing event handler before its message goes to `<topic>.dlq`. */
  maxHandlerAttempts?: number;
  /** Whether this process makes request-reply calls (starts the reply consumer). */
  rpcClient?: boolean;
  /** Default time-out of a request-reply call (5 s; tests on a loaded machine allow more). */
  rpcTimeoutMs?: number;
  /**
   * How long a publish waits for others to share its produce request (default 0: only those of the same tick).
   * A process that publishes per HTTP request (the gateway's sends) sets a millisecond or two.
   */
  publishLingerMs?: number;
}
