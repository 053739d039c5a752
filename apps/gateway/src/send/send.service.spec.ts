import { Logger } from '@nestjs/common';
import { ProblemTypes, problem, type SendMessageBody } from '@parley/contracts';
import { EventPublisher, PublishTimeoutError, RpcClient, RpcProblemError } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { SendFundsService } from '../billing/send-funds.service';
import { ChannelSendersService } from '../channels/channel-senders.service';
import type { IdempotencyService } from '../idempotency/idempotency.service';
import { SendService } from './send.service';

/** The service's decisions for unkeyed sends, with its collaborators replaced by stand-ins (the integration spec uses real Kafka). */
describe('SendService', () => {
  beforeAll(() => Logger.overrideLogger(false));
  const body = { channel: 'whatsapp', to: '+14155550123', message: 'hi' } as SendMessageBody;
  const setup = (publish: () => Promise<void>, resolveSender: () => Promise<unknown> = async () => ({})) => {
    const publisher = { publishEvent: jest.fn(publish) } as unknown as EventPublisher;
    const rpc = { request: jest.fn(resolveSender) } as unknown as RpcClient;
    // Billing is not enforced here: nothing is reserved (apps/gateway/src/billing covers the 402).
    const funds = { reserve: async () => null } as unknown as SendFundsService;
    return { service: new SendService(publisher, new ChannelSendersService(rpc), {} as IdempotencyService, rpc, funds), publisher, rpc };
  };

  it('answers 503 with Retry-After: 5 when the broker does not acknowledge in time, never "sent"', async () => {
    const { service, publisher } = setup(() => Promise.reject(new PublishTimeoutError(2000)));
    const err = await service.send('ten_A', body, 'req-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemException);
    expect((err as ProblemException).problem).toMatchObject({ status: 503, type: ProblemTypes.unavailable });
    expect((err as ProblemException).headers).toEqual({ 'retry-after': '5' });
    expect(publisher.publishEvent).toHaveBeenCalledWith(expect.objectContaining({ type: 'message.outbound' }), 'ten_A:+14155550123', 'req-1', { timeoutMs: 2000 });
  });

  it('turns an unknown `from` into a 400 naming it, and publishes nothing', async () => {
    const { service, publisher, rpc } = setup(
      () => Promise.resolve(),
      () => Promise.reject(new RpcProblemError(problem(404, ProblemTypes.notFound, 'Not Found', 'no such number'))),
    );
    const err = await service.send('ten_A', { ...body, from: '+14155550100' }, 'req-2').catch((e: unknown) => e);
    expect((err as ProblemException).problem).toMatchObject({ status: 400, errors: [{ field: 'from', message: expect.stringContaining('not one of your') }] });
    expect(rpc.request).toHaveBeenCalledWith('channels.resolve-sender', { tenant_id: 'ten_A', phone_number: '+14155550100' }, { requestId: 'req-2' });
    expect(publisher.publishEvent).not.toHaveBeenCalled();
  });

  it('has a template checked by its owner before queueing it, and queues nothing it refuses (409 opted-out passed on)', async () => {
    const refusal = new RpcProblemError(problem(409, ProblemTypes.optedOut, 'Opted out', 'opted out'));
    const { service, publisher, rpc } = setup(
      () => Promise.resolve(),
      () => Promise.reject(refusal),
    );
    const template = { name: 'spring_sale', language: { code: 'en' } };
    const err = await service.send('ten_A', { channel: 'whatsapp', to: '+14155550123', template } as SendMessageBody, 'req-t').catch((e: unknown) => e);
    expect(err).toBe(refusal);
    expect(rpc.request).toHaveBeenCalledWith('templates.check-send', { tenant_id: 'ten_A', to: '+14155550123', from: null, template }, { requestId: 'req-t' });
    expect(publisher.publishEvent).not.toHaveBeenCalled();
  });

  it('passes other failures of the sender check on (a time-out becomes 503 in the problem filter)', async () => {
    const failure = new Error('boom');
    const { service } = setup(
      () => Promise.resolve(),
      () => Promise.reject(failure),
    );
    await expect(service.send('ten_A', { ...body, from: '+14155550100' }, 'req-3')).rejects.toBe(failure);
  });

  it('publishes from the given number once it is known', async () => {
    const { service, publisher } = setup(() => Promise.resolve());
    const answer = await service.send('ten_A', { ...body, from: '+14155550100' }, 'req-4');
    expect(answer).toEqual({ status: 'sent', message_id: expect.stringMatching(/^msg_/) });
    const envelope = (publisher.publishEvent as jest.Mock).mock.calls[0][0];
    expect(envelope.data).toMatchObject({ message_id: answer.message_id, from: '+14155550100', content: { type: 'text', text: 'hi' }, origin: 'api' });
  });
});
