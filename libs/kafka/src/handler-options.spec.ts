import type { MessageHandler } from '@nestjs/microservices';
import { handlerOptionProblems, skipsUnread } from './handler-options';
import { BatchByKey, GatheredBatchByKey, SettledAfterGathering } from './kafka-transport';

function handler(extras?: Record<string, unknown>): MessageHandler {
  return Object.assign(async () => undefined, { extras, isEventHandler: true }) as unknown as MessageHandler;
}

describe('handlerOptionProblems', () => {
  it('accepts every option the transport documents', () => {
    for (const extras of [undefined, BatchByKey, GatheredBatchByKey, SettledAfterGathering, { ...GatheredBatchByKey, skipUnreadWhen: { campaign: 'no' } }]) {
      expect(handlerOptionProblems('message.status', handler(extras))).toEqual([]);
    }
  });

  it('names a misspelt option, which would otherwise be ignored without a word', () => {
    expect(handlerOptionProblems('message.status', handler({ ...GatheredBatchByKey, skipUnreadWhn: { campaign: 'no' } }))).toEqual([
      'message.status: unknown handler option "skipUnreadWhn" (known: batchByKey, lingerMs, settleMs, skipUnreadWhen)',
    ]);
  });

  it('refuses settling a batch handler and a skip rule without a header or with a value that is not a string', () => {
    expect(handlerOptionProblems('contact.deleted', handler({ ...BatchByKey, ...SettledAfterGathering }))).toEqual([
      'contact.deleted: SettledAfterGathering is for one-message handlers, and this is a batch handler',
    ]);
    for (const skipUnreadWhen of [{}, { campaign: true }, null]) {
      expect(handlerOptionProblems('message.status', handler({ skipUnreadWhen }))).toEqual([
        'message.status: skipUnreadWhen must name at least one header and the string value to skip on',
      ]);
    }
  });
});

describe('skipsUnread', () => {
  const skipper = handler({ skipUnreadWhen: { campaign: 'no', origin: 'agent' } });

  it('skips a record only when every named header has its value, read raw as Kafka hands it over', () => {
    expect(skipsUnread(skipper, { campaign: Buffer.from('no'), origin: Buffer.from('agent') })).toBe(true);
    expect(skipsUnread(skipper, { campaign: 'no', origin: 'agent' })).toBe(true);
    expect(skipsUnread(skipper, { campaign: Buffer.from('no'), origin: Buffer.from('api') })).toBe(false);
  });

  it('reads a record without the header (a producer from before it existed) and anything for a handler without a rule', () => {
    expect(skipsUnread(skipper, { campaign: Buffer.from('no') })).toBe(false);
    expect(skipsUnread(skipper, undefined)).toBe(false);
    expect(skipsUnread(handler(GatheredBatchByKey), { campaign: Buffer.from('no'), origin: Buffer.from('agent') })).toBe(false);
  });
});
