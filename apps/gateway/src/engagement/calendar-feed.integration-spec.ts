import { Controller, Module, type INestApplication } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Headers, RpcTopics, notFoundProblem, type RpcRequest, type RpcResponse } from '@parley/contracts';
import { KafkaModule, type TopicProbe } from '@parley/kafka';
import { ProblemException, createServiceApp, loggerParams } from '@parley/service-kit';
import { pollUntil, testInfra } from '@parley/testing';
import { LoggerModule } from 'nestjs-pino';
import { randomBytes } from 'node:crypto';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/** Each tenant's token, as responder-service would keep them (its own spec tests the real thing). */
const tokens = new Map<string, string>();
const newToken = () => randomBytes(32).toString('base64url');

/** Plays responder-service's feed patterns over the real broker, so the gateway's answers can be seen end to end. */
@Controller()
class FeedResponder {
  @MessagePattern('appointments.feed-token')
  token(@Payload() req: RpcRequest<'appointments.feed-token'>): RpcResponse<'appointments.feed-token'> {
    if (!tokens.has(req.tenant_id)) tokens.set(req.tenant_id, newToken());
    return { token: tokens.get(req.tenant_id)! };
  }

  @MessagePattern('appointments.feed-rotate')
  rotate(@Payload() req: RpcRequest<'appointments.feed-rotate'>): RpcResponse<'appointments.feed-rotate'> {
    tokens.set(req.tenant_id, newToken());
    return { token: tokens.get(req.tenant_id)! };
  }

  @MessagePattern('appointments.feed')
  feed(@Payload() req: RpcRequest<'appointments.feed'>): RpcResponse<'appointments.feed'> {
    const tenant = [...tokens].find(([, token]) => token === req.token)?.[0];
    if (!tenant) throw new ProblemException(notFoundProblem('Calendar feed'));
    return { ics: `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-WR-CALNAME:${tenant}\r\nEND:VCALENDAR\r\n` };
  }
}

describe('gateway: the calendar feed routes (CONTRACT.md §14, Integrations)', () => {
  let gw: GatewayTestApp;
  let responder: INestApplication | undefined;
  let alice: CreatedAccount;
  let bob: CreatedAccount;
  let requests: TopicProbe<Record<string, unknown>>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwcalendar', { PUBLIC_BASE_URL: 'https://parley.example' });
    [alice, bob] = [await gw.signUp('Alice Dental'), await gw.signUp('Bob Barber')];
    requests = await gw.kafka.probe(RpcTopics.responder);
    @Module({
      imports: [
        LoggerModule.forRoot(loggerParams('fake-responder', 'warn')),
        KafkaModule.forRootAsync({ useFactory: () => ({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'fake-responder', namespace: gw.config.KAFKA_TOPIC_PREFIX }) }),
      ],
      controllers: [FeedResponder],
    })
    class FakeResponderModule {}
    responder = await createServiceApp(FakeResponderModule, { consumeKafka: true });
    await responder.startAllMicroservices();
  });

  afterAll(async () => {
    await requests?.stop();
    await responder?.close();
    await gw?.close();
  });

  const feedPath = (url: string) => new URL(url).pathname;

  it("answers the tenant's secret URL on the public origin, the same until rotated; the old one then answers 404", async () => {
    const first = await pollUntil(
      async () => {
        const answer = await gw.request('GET', '/api/v1/integrations/calendar', { token: alice.api_key });
        return answer.status === 200 ? answer : undefined;
      },
      { description: 'responder-service stand-in answering', timeoutMs: 30_000 },
    );
    expect(first.body.url).toMatch(/^https:\/\/parley\.example\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await gw.request('GET', '/api/v1/integrations/calendar', { token: alice.api_key })).body).toEqual(first.body);

    // No credential but the token: what a calendar app sends.
    const feed = await gw.request('GET', feedPath(first.body.url));
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(feed.headers.get('cache-control')).toBe('private, no-cache');
    expect(feed.body).toContain(`X-WR-CALNAME:${alice.tenant_id}\r\n`);

    const rotated = await gw.request('POST', '/api/v1/integrations/calendar/rotate', { token: alice.api_key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.url).not.toBe(first.body.url);
    const old = await gw.request('GET', feedPath(first.body.url));
    expect(old.status).toBe(404);
    expect(old.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await gw.request('GET', feedPath(rotated.body.url))).body).toContain(`X-WR-CALNAME:${alice.tenant_id}\r\n`);
  });

  it("sends each tenant's own tenant id: Bob's URL opens Bob's feed", async () => {
    const bobs = await gw.request('GET', '/api/v1/integrations/calendar', { token: bob.api_key });
    expect(bobs.status).toBe(200);
    const feed = await gw.request('GET', feedPath(bobs.body.url));
    expect(feed.body).toContain(`X-WR-CALNAME:${bob.tenant_id}\r\n`);
    expect(feed.body).not.toContain(alice.tenant_id);
    await pollUntil(() => requests.messages.some((m) => m.headers[Headers.RpcPattern] === 'appointments.feed-token' && m.value.tenant_id === bob.tenant_id), {
      description: "Bob's token asked with Bob's tenant",
    });
    expect(requests.messages.filter((m) => m.headers[Headers.RpcPattern] !== 'appointments.feed').every((m) => [alice.tenant_id, bob.tenant_id].includes(m.value.tenant_id as string))).toBe(true);
  });

  it('needs a credential for the URL, and answers 404 itself to a malformed feed path, without a call', async () => {
    expect((await gw.request('GET', '/api/v1/integrations/calendar')).status).toBe(401);
    expect((await gw.request('POST', '/api/v1/integrations/calendar/rotate')).status).toBe(401);
    const before = requests.messages.length;
    for (const path of ['/calendar/abc.ics', `/calendar/${'A'.repeat(43)}`, `/calendar/${'A'.repeat(43)}.ical`, `/calendar/${'A'.repeat(42)}%21.ics`]) {
      const answer = await gw.request('GET', path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
    expect(requests.messages.length).toBe(before);
  });
});
