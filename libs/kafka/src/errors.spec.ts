import { KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';
import { PublishTimeoutError, isTransientError, retryRetriable } from './errors';

describe('isTransientError', () => {
  it('treats unreachable infrastructure as transient', () => {
    expect(isTransientError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransientError({ name: 'QueryFailedError', driverError: { code: '57P01' } })).toBe(true);
    expect(isTransientError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientError(new PublishTimeoutError(2000))).toBe(true);
  });

  it('treats bugs and bad data as permanent', () => {
    expect(isTransientError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isTransientError({ name: 'QueryFailedError', code: '23502' })).toBe(false);
    expect(isTransientError(undefined)).toBe(false);
  });
});

describe('retryRetriable', () => {
  it('retries errors marked retriable and gives up on others', async () => {
    let calls = 0;
    await expect(
      retryRetriable(async () => {
        calls++;
        if (calls < 3) throw Object.assign(new Error('not the leader'), { retriable: true });
        return 'ok';
      }),
    ).resolves.toBe('ok');
    expect(calls).toBe(3);
    await expect(retryRetriable(async () => Promise.reject(new Error('fatal')))).rejects.toThrow('fatal');
  });

  it('retries a retriable error kafkajs gave up on (wrapped as non-retriable), but not a non-retriable one', async () => {
    const unknownTopic = new KafkaJSProtocolError({ message: 'This server does not host this topic-partition', type: 'UNKNOWN_TOPIC_OR_PARTITION', retriable: true } as unknown as Error);
    let calls = 0;
    await expect(
      retryRetriable(async () => {
        calls++;
        if (calls < 3) throw Object.assign(new KafkaJSNonRetriableError(unknownTopic), { cause: unknownTopic });
        return 'served';
      }),
    ).resolves.toBe('served');
    expect(calls).toBe(3);

    calls = 0;
    const invalid = new KafkaJSNonRetriableError('Invalid topic');
    await expect(
      retryRetriable(async () => {
        calls++;
        throw invalid;
      }),
    ).rejects.toBe(invalid);
    expect(calls).toBe(1);
  });
});
