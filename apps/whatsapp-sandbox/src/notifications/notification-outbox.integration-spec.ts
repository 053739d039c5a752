import type { INestApplication } from '@nestjs/common';
import { createServiceApp, dataSourceOptions, loadConfig, runMigrations } from '@parley/service-kit';
import { createTestDatabase, pollUntil, type TestDatabase } from '@parley/testing';
import { DataSource } from 'typeorm';
import { sandboxAppOptions, whatsappSandboxModule } from '../app.module';
import { newWamid } from '../cloud-api/ids';
import { statusNotification, type StatusValue } from '../cloud-api/notifications';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { whatsappSandboxDatabase } from '../database/whatsapp-sandbox.database';
import { GatewayReceiver } from '../test/gateway-receiver';
import { NotificationOutbox, type OutboxEntry } from './notification-outbox.store';

const APP_SECRET = 'test-meta-app-secret';
const CUSTOMER = '+16505551234';
const LIFECYCLE: StatusValue[] = ['sent', 'delivered', 'read'];
const DAY_MS = 86_400_000;
/** Short pauses so a test sees many attempts quickly; the last one repeats. */
const RETRY_MS = '50,100,200';

interface Sandbox {
  app: INestApplication;
  base: string;
}

describe('whatsapp-sandbox notification outbox (durable status callbacks)', () => {
  let db: TestDatabase;
  /** A connection of the test's own, standing in for other (or dead) sandbox instances on the same database. */
  let sql: DataSource;
  let receiver: GatewayReceiver;
  let receiverPort: number;
  /** While true, the gateway stand-in answers 500 to everything. */
  let refusing = false;
  const running: Sandbox[] = [];

  const startReceiver = async (port = 0) => {
    receiver = await GatewayReceiver.start(APP_SECRET, () => (refusing ? 500 : 200), port);
    receiverPort = Number(new URL(receiver.url).port);
  };

  async function startSandbox(env: Record<string, string> = {}): Promise<Sandbox> {
    const config = loadConfig(WhatsappSandboxConfig, {
      DATABASE_URL: db.url,
      PORT: '0',
      SANDBOX_SMTP_PORT: '0',
      LOG_LEVEL: 'error',
      GATEWAY_URL: `http://127.0.0.1:${receiverPort}`,
      META_APP_SECRET: APP_SECRET,
      SANDBOX_STATUS_CALLBACKS: 'true',
      SANDBOX_NOTIFY_RETRY_MS: RETRY_MS,
      ...env,
    });
    const app = await createServiceApp(whatsappSandboxModule(config), sandboxAppOptions);
    await app.listen(0, '127.0.0.1');
    const sandbox = { app, base: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
    running.push(sandbox);
    return sandbox;
  }

  async function stopSandbox(sandbox: Sandbox): Promise<void> {
    running.splice(running.indexOf(sandbox), 1);
    await sandbox.app.close();
  }

  async function provision(sandbox: Sandbox): Promise<{ phone_number_id: string; phone_number: string }> {
    const response = await fetch(`${sandbox.base}/_sandbox/numbers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return (await response.json()) as { phone_number_id: string; phone_number: string };
  }

  async function send(sandbox: Sandbox, phoneNumberId: string, text: string): Promise<string> {
    const response = await fetch(`${sandbox.base}/v21.0/${phoneNumberId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer EAA-test-token' },
      body: JSON.stringify({ messaging_product: 'whatsapp', to: CUSTOMER, type: 'text', text: { body: text } }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { messages: { id: string }[] }).messages[0].id;
  }

  const owedFor = async (wamid: string) =>
    (await sql.query(`SELECT body, attempts FROM notifications WHERE message_key = $1 ORDER BY id`, [wamid])) as { body: string; attempts: number }[];
  const statusOfBody = (body: string) => (JSON.parse(body) as ReturnType<typeof statusNotification>).entry[0].changes[0].value.statuses![0].status;

  beforeAll(async () => {
    db = await createTestDatabase('sandboxoutbox');
    await runMigrations(db.url, whatsappSandboxDatabase);
    sql = new DataSource(dataSourceOptions(db.url, whatsappSandboxDatabase));
    await sql.initialize();
    await startReceiver();
  });

  afterEach(async () => {
    refusing = false;
    for (const sandbox of [...running]) await stopSandbox(sandbox);
  });

  afterAll(async () => {
    await sql?.destroy();
    await receiver?.close();
    await db?.drop();
  });

  it('keeps retrying a refused status past the old five attempts, pausing longer each time, then delivers it and the held-back ones in order', async () => {
    const sandbox = await startSandbox();
    const number = await provision(sandbox);
    refusing = true;
    const wamid = await send(sandbox, number.phone_number_id, 'refused for a while');

    // The in-memory notifier gave up after 5 attempts; the outbox goes on.
    const refused = await pollUntil(() => receiver.attemptsFor(wamid).length >= 8 && receiver.attemptsFor(wamid), { description: '8 refused attempts' });
    expect(refused.every((a) => a.answered === 500 && a.signatureValid)).toBe(true);
    // delivered and read wait behind the refused sent
    expect(new Set(refused.map((a) => a.body.entry[0].changes[0].value.statuses![0].status))).toEqual(new Set(['sent']));
    const pauses = refused.slice(1).map((a, i) => a.at - refused[i].at);
    expect(pauses[0]).toBeGreaterThanOrEqual(50 - 5);
    expect(pauses[1]).toBeGreaterThanOrEqual(100 - 5);
    expect(pauses.slice(2).every((p) => p >= 200 - 5)).toBe(true);
    expect((await owedFor(wamid)).map((r) => statusOfBody(r.body))).toEqual(LIFECYCLE);

    refusing = false;
    await pollUntil(() => receiver.statusesOf(wamid).length === 3, { description: 'the three statuses once the gateway takes them' });
    expect(receiver.statusesOf(wamid)).toEqual(LIFECYCLE);
    // delivered rows are deleted: the table holds only what is still owed
    await pollUntil(async () => (await owedFor(wamid)).length === 0, { description: 'the outbox emptied' });
  });

  it('stores the statuses with the message before answering; a new instance delivers them after the first stopped with the gateway down', async () => {
    const first = await startSandbox();
    const number = await provision(first);
    const port = receiverPort;
    await receiver.close(); // the gateway is down: connections are refused

    const wamid = await send(first, number.phone_number_id, 'outlives its sandbox');
    // Right after the 200, without waiting: the three statuses are in PostgreSQL.
    expect((await owedFor(wamid)).map((r) => statusOfBody(r.body))).toEqual(LIFECYCLE);
    await pollUntil(async () => (await owedFor(wamid))[0].attempts >= 2, { description: 'attempts against the down gateway' });
    await stopSandbox(first);

    await startReceiver(port);
    await startSandbox();
    await pollUntil(() => receiver.statusesOf(wamid).length === 3, { description: 'the statuses from the new instance' });
    expect(receiver.statusesOf(wamid)).toEqual(LIFECYCLE);
    expect(receiver.attemptsFor(wamid).every((a) => a.signatureValid)).toBe(true);
    await pollUntil(async () => (await owedFor(wamid)).length === 0, { description: 'the outbox emptied' });
  });

  it('keeps a customer’s message the gateway could not take (202 queued) in PostgreSQL, retried for 7 days, and a new instance delivers it', async () => {
    const first = await startSandbox();
    const number = await provision(first);
    const port = receiverPort;
    await receiver.close(); // the gateway is down: connections are refused

    const written = Date.now();
    const response = await fetch(`${first.base}/_sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: CUSTOMER, to: number.phone_number, text: 'written while the gateway was down' }),
    });
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string; queued: boolean };
    const key = `inbound:${number.phone_number_id}:${CUSTOMER.slice(1)}`;
    const [owed] = (await sql.query(`SELECT body, give_up_at FROM notifications WHERE message_key = $1`, [key])) as { body: string; give_up_at: Date }[];
    expect((JSON.parse(owed.body) as ReturnType<typeof statusNotification>).entry[0].changes[0].value.messages![0]).toMatchObject({ id, text: { body: 'written while the gateway was down' } });
    expect(owed.give_up_at.getTime() - written).toBeGreaterThanOrEqual(7 * DAY_MS - 60_000);
    await pollUntil(async () => (await owedFor(key))[0].attempts >= 2, { description: 'retries against the down gateway' });
    await stopSandbox(first);

    await startReceiver(port);
    await startSandbox();
    const taken = await pollUntil(() => receiver.attemptsFor(id).find((a) => a.answered === 200), { description: 'the message from the new instance' });
    expect(taken.signatureValid).toBe(true);
    expect(taken.body.entry[0].changes[0].value.metadata.phone_number_id).toBe(number.phone_number_id);
    await pollUntil(async () => (await owedFor(key)).length === 0, { description: 'the outbox emptied' });
  });

  it('takes over a status a killed instance had claimed, once its lease runs out, and keeps the order', async () => {
    const wamid = newWamid();
    const business = { phoneNumberId: '100000000000001', phoneNumber: '+12015550199', wabaId: '200000000000001' };
    const entries: OutboxEntry[] = LIFECYCLE.map((status) => ({
      messageKey: wamid,
      body: JSON.stringify(statusNotification(business, { messageId: wamid, status, recipient: CUSTOMER, at: new Date() })),
      dueAt: new Date(),
      giveUpAt: new Date(Date.now() + DAY_MS),
    }));
    // The dead instance: it recorded the statuses, claimed the first for 1.5 s and was killed before posting it.
    const dead = new NotificationOutbox(sql);
    await dead.record(sql, entries);
    const claimedAt = Date.now();
    const claimed = await dead.claim(10, 1_500);
    expect(claimed.map((c) => statusOfBody(c.body))).toEqual(['sent']); // only the first in line

    await startSandbox();
    await pollUntil(() => receiver.statusesOf(wamid).length === 3, { description: 'the statuses after the lease' });
    expect(receiver.statusesOf(wamid)).toEqual(LIFECYCLE);
    expect(receiver.attemptsFor(wamid)).toHaveLength(3);
    expect(receiver.attemptsFor(wamid)[0].at).toBeGreaterThanOrEqual(claimedAt + 1_500);
  });

  it('delivers every status exactly once and in order while two instances dispatch from one database', async () => {
    const a = await startSandbox();
    const b = await startSandbox();
    const numberA = await provision(a);
    const numberB = await provision(b);
    const sends = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? { sandbox: a, number: numberA } : { sandbox: b, number: numberB }));
    const wamids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < sends.length) {
          const { sandbox, number } = sends[next++];
          wamids.push(await send(sandbox, number.phone_number_id, `burst ${next}`));
        }
      }),
    );
    const mine = new Set(wamids);
    const taken = () => receiver.received.filter((r) => r.answered === 200 && mine.has(r.body.entry[0].changes[0].value.statuses?.[0]?.id ?? '')).length;
    await pollUntil(() => taken() >= 900, { description: 'three statuses for each of 300 messages', timeoutMs: 45_000 });
    for (const wamid of wamids) {
      expect(receiver.attemptsFor(wamid)).toHaveLength(3); // no status posted twice
      expect(receiver.statusesOf(wamid)).toEqual(LIFECYCLE);
    }
    await pollUntil(async () => (await new NotificationOutbox(sql).pendingCount()) === 0, { description: 'the outbox emptied' });
  });

  it('drops a notification the gateway never took once SANDBOX_NOTIFY_GIVE_UP_MS has passed', async () => {
    const sandbox = await startSandbox({ SANDBOX_NOTIFY_GIVE_UP_MS: '1000' });
    const number = await provision(sandbox);
    refusing = true;
    const wamid = await send(sandbox, number.phone_number_id, 'never taken');
    await pollUntil(async () => (await owedFor(wamid)).length === 0, { description: 'the notifications dropped' });
    const attempts = receiver.attemptsFor(wamid);
    const statuses = attempts.map((x) => x.body.entry[0].changes[0].value.statuses![0].status);
    // sent was retried until the horizon; the two behind it, as old by then, were tried once each and dropped
    expect(statuses.filter((s) => s === 'sent').length).toBeGreaterThan(1);
    expect(statuses.slice(-2)).toEqual(['delivered', 'read']);
    expect(attempts.every((x) => x.answered === 500)).toBe(true);
    expect(attempts[attempts.length - 1].at - attempts[0].at).toBeGreaterThanOrEqual(1_000 - 50);
  });

  describe('claims', () => {
    const entriesFor = (keys: string[]): OutboxEntry[] =>
      keys.flatMap((key) => LIFECYCLE.map((status) => ({ messageKey: key, body: JSON.stringify({ key, status }), dueAt: new Date(), giveUpAt: new Date(Date.now() + DAY_MS) })));

    it('never hands one notification to two claimers at once, and hands out a key’s notifications only in order', async () => {
      const keys = Array.from({ length: 200 }, (_, i) => `claim-race-${i}`);
      const setup = new NotificationOutbox(sql);
      await setup.record(sql, entriesFor(keys));
      const second = new DataSource(dataSourceOptions(db.url, whatsappSandboxDatabase));
      await second.initialize();
      try {
        const order: { claimer: number; key: string; status: string; id: string }[] = [];
        let batchesWithTwoOfAKey = 0;
        const claimer = async (outbox: NotificationOutbox, n: number) => {
          for (let idle = 0; idle < 3; ) {
            const claimed = await outbox.claim(25, 60_000);
            idle = claimed.length === 0 ? idle + 1 : 0;
            if (new Set(claimed.map((c) => c.messageKey)).size !== claimed.length) batchesWithTwoOfAKey++;
            for (const c of claimed) order.push({ claimer: n, id: c.id, ...(JSON.parse(c.body) as { key: string; status: string }) });
            await outbox.settle(claimed.map((c) => ({ id: c.id, attempts: c.attempts, outcome: 'delivered' as const })));
          }
        };
        await Promise.all([claimer(new NotificationOutbox(sql), 1), claimer(new NotificationOutbox(second), 2)]);

        expect(order).toHaveLength(600);
        expect(batchesWithTwoOfAKey).toBe(0); // a key's next notification is only handed out once the previous one is settled
        expect(new Set(order.map((o) => o.id)).size).toBe(600);
        expect(order.some((o) => o.claimer === 1) && order.some((o) => o.claimer === 2)).toBe(true);
        for (const key of keys) expect(order.filter((o) => o.key === key).map((o) => o.status)).toEqual(LIFECYCLE);
      } finally {
        await second.destroy();
      }
    });

    it('leases a claim: nobody else takes it before the lease ends, and a late outcome of an expired claim changes nothing', async () => {
      const key = `lease-${Date.now()}`;
      const a = new NotificationOutbox(sql);
      const b = new NotificationOutbox(sql);
      await a.record(sql, entriesFor([key]).slice(0, 1));
      const [mine] = await a.claim(10, 300);
      expect(mine.attempts).toBe(1);
      expect(await b.claim(10, 60_000)).toEqual([]);

      const [theirs] = await pollUntil(async () => {
        const claimed = await b.claim(10, 60_000);
        return claimed.length > 0 && claimed;
      }, { description: 'the lease to run out' });
      expect(theirs).toMatchObject({ id: mine.id, attempts: 2 });

      await a.settle([{ id: mine.id, attempts: mine.attempts, outcome: 'delivered' }]); // too late: b holds it now
      expect(await owedFor(key)).toHaveLength(1);
      await b.settle([{ id: theirs.id, attempts: theirs.attempts, outcome: 'delivered' }]);
      expect(await owedFor(key)).toHaveLength(0);
    });
  });
});
