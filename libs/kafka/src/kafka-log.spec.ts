import { logLevel } from 'kafkajs';
import { kafkaLogLevel } from './kafka-log';

const entry = (level: logLevel, message: string, error?: string) => ({ level, log: { timestamp: '', logger: 'kafkajs', message, ...(error ? { error } : {}) } });

describe('kafkaLogLevel', () => {
  it('drops the protocol error kafkajs logs for a leadership move it retries itself', () => {
    expect(kafkaLogLevel(entry(logLevel.ERROR, 'Response ListOffsets(key: 2, version: 3)', 'This server is not the leader for that topic-partition'))).toBeNull();
    expect(kafkaLogLevel(entry(logLevel.ERROR, 'Response Metadata(key: 3, version: 6)', 'There is no leader for this topic-partition as we are in the middle of a leadership election'))).toBeNull();
    expect(kafkaLogLevel(entry(logLevel.ERROR, 'Response JoinGroup(key: 11, version: 5)', "The coordinator is loading and hence can't process requests for this group"))).toBeNull();
    expect(kafkaLogLevel(entry(logLevel.ERROR, 'Response Heartbeat(key: 12, version: 3)', 'The group is rebalancing, so a rejoin is needed'))).toBeNull();
  });

  it('keeps every other error and warning, including other protocol errors', () => {
    expect(kafkaLogLevel(entry(logLevel.ERROR, 'Response Produce(key: 0, version: 7)', 'The request included a message larger than the max message size the server will accept'))).toBe('error');
    expect(kafkaLogLevel(entry(logLevel.ERROR, 'Crash: KafkaJSNumberOfRetriesExceeded', 'This server is not the leader for that topic-partition'))).toBe('error');
    expect(kafkaLogLevel(entry(logLevel.WARN, 'Connection timeout'))).toBe('warn');
    expect(kafkaLogLevel(entry(logLevel.INFO, 'Consumer has joined the group'))).toBeNull();
  });
});
