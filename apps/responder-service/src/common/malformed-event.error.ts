/**
 * An event that can never be handled as it is (a producer bug). Not transient: the transport retries it a few
 * times and then moves it to the topic's dead-letter queue instead of blocking the partition.
 */
export class MalformedEventError extends Error {
  constructor(topic: string, detail: string) {
    super(`malformed ${topic} event: ${detail}`);
    this.name = 'MalformedEventError';
  }
}
