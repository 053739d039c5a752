import { EventPublisher } from '@parley/kafka';
import { Topics, type MessageStatusEvent, type OutboundStatus } from '@parley/contracts';
import { withoutRepeats } from './status-outcomes';

const status = (messageId: string, s: OutboundStatus): MessageStatusEvent =>
  EventPublisher.envelope(Topics.MessageStatus, 'ten_1', { event: 'message.status', channel: 'whatsapp', tenant_id: 'ten_1', message_id: messageId, status: s, to: '+4915100000001', at: '2026-11-29T00:00:00.000Z' });

const names = (events: MessageStatusEvent[]) => events.map((e) => `${e.data.message_id}:${e.data.status}`);

describe('withoutRepeats: the statuses of a key group that can still change a charge', () => {
  it('keeps each message’s first outcome and drops delivered and read after sent', () => {
    expect(names(withoutRepeats([status('a', 'sent'), status('b', 'delivered'), status('a', 'delivered'), status('a', 'read'), status('b', 'read')]))).toEqual([
      'a:sent',
      'b:delivered',
    ]);
  });

  it('keeps a failure after sent (it refunds), and drops anything after a failure (it is final)', () => {
    expect(names(withoutRepeats([status('a', 'sent'), status('a', 'failed'), status('a', 'read'), status('a', 'failed')]))).toEqual(['a:sent', 'a:failed']);
  });
});
