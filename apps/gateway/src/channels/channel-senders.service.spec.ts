import { ProblemTypes, problem } from '@parley/contracts';
import { RpcClient, RpcProblemError } from '@parley/kafka';
import { ChannelSendersService, SENDER_TTL_MS } from './channel-senders.service';

/** The sender cache's decisions, with messaging-service's answer replaced by a stand-in (the integration spec uses the real one). */
describe('ChannelSendersService', () => {
  const notFound = () => new RpcProblemError(problem(404, ProblemTypes.notFound, 'Not Found', 'no such number'));
  const setup = (connected: Set<string>) => {
    const rpc = {
      request: jest.fn(async (_pattern: string, req: { phone_number: string }) => {
        if (!connected.has(req.phone_number)) throw notFound();
        return {};
      }),
    };
    const senders = new ChannelSendersService(rpc as unknown as RpcClient);
    return { senders, rpc };
  };
  afterEach(() => jest.useRealTimers());

  it('asks once per number while changes reach it, and again after the TTL', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { senders, rpc } = setup(new Set(['+1']));
    senders.trust(true);
    expect(await senders.isSender('ten_A', '+1')).toBe(true);
    expect(await senders.isSender('ten_A', '+1')).toBe(true);
    expect(rpc.request).toHaveBeenCalledTimes(1);
    jest.setSystemTime(1_000_000 + SENDER_TTL_MS + 1);
    expect(await senders.isSender('ten_A', '+1')).toBe(true);
    expect(rpc.request).toHaveBeenCalledTimes(2);
  });

  it('keeps no refusal: an unknown number is asked about every time (it may have been connected meanwhile)', async () => {
    const connected = new Set<string>();
    const { senders, rpc } = setup(connected);
    senders.trust(true);
    expect(await senders.isSender('ten_A', '+2')).toBe(false);
    connected.add('+2');
    expect(await senders.isSender('ten_A', '+2')).toBe(true);
    expect(rpc.request).toHaveBeenCalledTimes(2);
  });

  it('forgets a tenant on a change, only that tenant', async () => {
    const connected = new Set(['+1']);
    const { senders, rpc } = setup(connected);
    senders.trust(true);
    await senders.isSender('ten_A', '+1');
    await senders.isSender('ten_B', '+1');
    connected.delete('+1');
    senders.forgetTenant('ten_A');
    expect(await senders.isSender('ten_A', '+1')).toBe(false);
    expect(await senders.isSender('ten_B', '+1')).toBe(true); // ten_B's change has not arrived: still trusted
    expect(rpc.request).toHaveBeenCalledTimes(3);
  });

  it('keeps nothing while changes may be missed, nor an answer that was in flight during a change', async () => {
    const { senders, rpc } = setup(new Set(['+1']));
    await senders.isSender('ten_A', '+1');
    await senders.isSender('ten_A', '+1');
    expect(rpc.request).toHaveBeenCalledTimes(2); // not trusted yet: every send asks

    senders.trust(true);
    const racing = senders.isSender('ten_A', '+1');
    senders.forgetTenant('ten_A');
    expect(await racing).toBe(true);
    await senders.isSender('ten_A', '+1');
    expect(rpc.request).toHaveBeenCalledTimes(4); // the racing answer was not kept

    await senders.isSender('ten_A', '+1');
    expect(rpc.request).toHaveBeenCalledTimes(4);
    senders.trust(false);
    await senders.isSender('ten_A', '+1');
    expect(rpc.request).toHaveBeenCalledTimes(5);
  });

  it('passes failures other than "not found" on', async () => {
    const rpc = { request: jest.fn(() => Promise.reject(new Error('boom'))) };
    const senders = new ChannelSendersService(rpc as unknown as RpcClient);
    await expect(senders.isSender('ten_A', '+1')).rejects.toThrow('boom');
  });
});
