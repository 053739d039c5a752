import { KafkajsRequestQueue } from './kafkajs-patches';

describe('kafkajs request queue (patched)', () => {
  const logger = { debug: () => undefined, warn: () => undefined, info: () => undefined, error: () => undefined };
  const queue = (options: Record<string, unknown> = {}) =>
    new KafkajsRequestQueue({ maxInFlightRequests: null, requestTimeout: 10_000, enforceRequestTimeout: true, clientId: 'test', broker: 'b:9092', logger, ...options });

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('arms no timer after a check that finds nothing pending (kafkajs 2.2.4 re-armed a 1 ms timer for ever)', () => {
    const q = queue();
    q.checkPendingRequests();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('still retries a request held back by client-side throttling', () => {
    const q = queue();
    let sent = 0;
    q.throttledUntil = Date.now() + 50;
    q.push({ entry: { correlationId: 1, apiKey: 0, apiName: 'Produce', apiVersion: 0, resolve: () => undefined, reject: () => undefined }, expectResponse: false, sendRequest: () => sent++ });
    expect(sent).toBe(0);
    jest.advanceTimersByTime(50);
    expect(sent).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('looks for timed-out requests once a second', () => {
    const q = queue();
    let timedOut = 0;
    q.inflight.set(1, { sentAt: Date.now(), requestTimeout: 10_000, timeoutRequest: () => timedOut++ });
    q.scheduleRequestTimeoutCheck();
    jest.advanceTimersByTime(10_000);
    expect(timedOut).toBe(0);
    jest.advanceTimersByTime(1_000);
    expect(timedOut).toBe(1);
    q.destroy();
    expect(jest.getTimerCount()).toBe(0);
  });
});
