import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Topics, newId, notFoundProblem, type ChannelChangedData, type RpcRequest } from '@parley/contracts';
import { EventPublisher, KafkaConnection, KafkaTransport, RpcPassThroughFilter, RpcProblemError } from '@parley/kafka';
import { pollUntil, testInfra } from '@parley/testing';
import { GatewayTestApp, type HttpAnswer, type CreatedAccount } from '../test/gateway-test-app';

const NUMBER = '+14155550100';
const CHANNEL_ID = newId('chn');

/**
 * messaging-service's side of the sender check, answered over the real broker: the number is the tenant's until
 * `channels.delete`, which (like messaging-service, whose channel tests cover its side) publishes `channel.changed`.
 */
const channel = { connected: new Set<string>(), lookups: 0, publisher: undefined as EventPublisher | undefined };

@Controller()
class MessagingStandIn {
  @MessagePattern('channels.resolve-sender')
  resolveSender(@Payload() req: RpcRequest<'channels.resolve-sender'>): { id: string } {
    channel.lookups++;
    if (!channel.connected.has(`${req.tenant_id}:${req.phone_number}`)) throw new RpcProblemError(notFoundProblem(`The WhatsApp number ${req.phone_number}`));
    return { id: CHANNEL_ID };
  }

  @MessagePattern('channels.delete')
  async remove(@Payload() req: RpcRequest<'channels.delete'>): Promise<{ deleted: true }> {
    channel.connected.delete(`${req.tenant_id}:${NUMBER}`);
    const data: ChannelChangedData = { tenant_id: req.tenant_id, channel_id: req.channel_id, phone_number: NUMBER, channel: null };
    await channel.publisher!.publishEvent(EventPublisher.envelope(Topics.ChannelChanged, req.tenant_id, data), `${req.tenant_id}:${req.channel_id}`);
    return { deleted: true };
  }
}

@Module({ controllers: [MessagingStandIn] })
class MessagingStandInModule {}

/** CONTRACT.md §4 (`from`): the gateway keeps confirmed senders, and a disconnected number is refused promptly on every instance. */
describe('gateway: the sender check of POST /v1/send is cached and follows channel.changed (real Kafka)', () => {
  let gw: GatewayTestApp;
  let other: GatewayTestApp;
  let account: CreatedAccount;
  let connection: KafkaConnection;
  let messaging: INestMicroservice;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwsenders');
    other = await gw.sibling({});
    connection = new KafkaConnection({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'messaging-stand-in', namespace: gw.config.KAFKA_TOPIC_PREFIX });
    channel.publisher = new EventPublisher(connection);
    messaging = await NestFactory.createMicroservice(MessagingStandInModule, { strategy: new KafkaTransport(connection, channel.publisher), logger: ['error'] });
    messaging.useGlobalFilters(new RpcPassThroughFilter());
    await messaging.listen();
    account = await gw.signUp();
    channel.connected.add(`${account.tenant_id}:${NUMBER}`);
  });

  afterAll(async () => {
    await messaging?.close();
    await channel.publisher?.onApplicationShutdown();
    await connection?.onApplicationShutdown();
    await other?.close();
    await gw?.close();
  });

  const sendFrom = (instance: GatewayTestApp, from: string): Promise<HttpAnswer> =>
    instance.request('POST', '/v1/send', { token: account.api_key, body: { channel: 'whatsapp', to: '+14155550123', message: 'hi', from } });
  const refusedFrom = (answer: HttpAnswer) =>
    answer.status === 400 && answer.body.errors?.some((e: { field: string; message: string }) => e.field === 'from' && e.message.includes('not one of your connected numbers'));

  it('answers repeated sends from a number without asking messaging-service each time, on every instance', async () => {
    for (const instance of [gw, other]) {
      // Once the instance's listener of channel.changed runs, a confirmed number is kept.
      await pollUntil(
        async () => {
          expect((await sendFrom(instance, NUMBER)).status).toBe(200);
          const before = channel.lookups;
          expect((await sendFrom(instance, NUMBER)).status).toBe(200);
          return channel.lookups === before;
        },
        { timeoutMs: 15_000, description: 'a send answered from the cache' },
      );
      const before = channel.lookups;
      for (let i = 0; i < 5; i++) expect((await sendFrom(instance, NUMBER)).status).toBe(200);
      expect(channel.lookups).toBe(before);
    }
    // An unknown number is never cached as refused, and refused with the contract's 400.
    expect(refusedFrom(await sendFrom(other, '+14155550199'))).toBe(true);
  });

  it('refuses a disconnected number at once on the instance that disconnected it and promptly on the others', async () => {
    expect((await sendFrom(other, NUMBER)).status).toBe(200); // held in other's cache
    const lookups = channel.lookups;
    expect((await gw.request('DELETE', `/api/v1/channels/${CHANNEL_ID}`, { token: account.api_key })).status).toBe(204);
    expect(refusedFrom(await sendFrom(gw, NUMBER))).toBe(true);
    // Well within the cache's 10 s safety TTL: it is the event that makes other forget the number.
    const started = Date.now();
    await pollUntil(async () => refusedFrom(await sendFrom(other, NUMBER)), { timeoutMs: 3000, description: 'the other instance to refuse the disconnected number' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(channel.lookups).toBeGreaterThan(lookups);
  });
});
