import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// The soak is the workspace tool behind `npm run soak` (tools/soak, plain CommonJS): the short run here is the same
// code (stack, tenants, load, sampling, judgement, report) at a low rate for 20 s instead of 30 minutes
// (the memory trend needs the long run: here it is inconclusive, which does not fail; losses, lag and logs are judged).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { runSoak, timestamp } from '../../../tools/soak/lib/soak.cjs';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { APPS, ROOT } from '../../../tools/dev/lib/stack.cjs';

const LOAD_MS = 20_000;
const RATES = { send: 3, inbound: 3, read: 2 };

describe('soak: mixed load, memory and lag sampled, nothing lost (short run of npm run soak)', () => {
  it('delivers every accepted send and inbound event, drains every consumer group to 0, logs no error, writes the report and charts', async () => {
    const outDir = join(ROOT, 'tmp', 'soak', `e2e-${timestamp()}`);
    const { result, files } = await runSoak({
      durationMs: LOAD_MS,
      rates: RATES,
      sampleMs: 2000,
      agentChangeMs: 5000,
      drainTimeoutMs: 30_000,
      tenants: 2,
      numbers: 1,
      outDir,
      log: (line) => process.stderr.write(`[soak] ${line}\n`),
    });
    const { counts, judgement, samples } = result;

    // the load ran at about its rate, every kind of traffic
    const offered = (rate: number) => Math.floor((rate * LOAD_MS) / 1000) - 2;
    expect(counts.sendsOffered).toBeGreaterThanOrEqual(offered(RATES.send));
    expect(counts.inboundOffered).toBeGreaterThanOrEqual(offered(RATES.inbound));
    expect(counts.readsOffered).toBeGreaterThanOrEqual(offered(RATES.read));
    expect(counts.agentChangesOffered).toBeGreaterThanOrEqual(3);
    // nothing failed: every request answered 2xx (a read of a message not stored yet is consumer lag, counted apart)
    expect([counts.sendsFailed, counts.inboundFailed, counts.readsFailed, counts.agentChangesFailed]).toEqual([0, 0, 0, 0]);
    expect(counts.sendsAccepted).toBe(counts.sendsOffered);
    expect(counts.inboundAccepted).toBe(counts.inboundOffered);
    expect(counts.readsOk + counts.readsNotYetStored).toBe(counts.readsOffered);
    expect(counts.agentChangesOk).toBe(counts.agentChangesOffered);
    // nothing lost, nothing twice: every accepted send at the sandbox once, every inbound's message.received at the
    // receiver under one webhook-id, every signature valid, no service restarted
    expect(counts.sendsAtSandbox).toBe(counts.sendsAccepted);
    expect(counts.sendsDuplicatedAtSandbox).toBe(0);
    expect(counts.inboundReceived).toBe(counts.inboundAccepted);
    expect(counts.duplicateEvents).toBe(0);
    expect(counts.badSignatures).toBe(0);
    expect(counts.serviceExits).toBe(0);
    // every customer who wrote (each a different one here) got exactly one agent reply on WhatsApp
    expect(counts.customersWrote).toBe(counts.inboundAccepted);
    expect(counts.customersAnswered).toBe(counts.customersWrote);
    expect(counts.customersOverAnswered).toBe(0);
    expect(counts.repliesAtSandbox).toBe(counts.inboundAccepted);
    expect(judgement.delivery.filter((d) => d.verdict === 'fail')).toEqual([]);
    expect(judgement.delivery.map((d) => d.name)).toEqual(
      expect.arrayContaining(['no accepted send reached the sandbox twice', 'no inbound message announced twice', 'every customer who wrote got a reply']),
    );
    // every consumer group sampled and back to 0 after the load
    // (one group per consumed topic: `<service>.<topic>`)
    expect(result.groups).toEqual(
      expect.arrayContaining(['messaging-service.message.outbound', 'messaging-service.whatsapp.webhook', 'responder-service.message.inbound', 'webhook-service.message.received']),
    );
    const last = samples[samples.length - 1];
    expect(last.phase).toBe('drain');
    expect(result.groups.filter((g) => last.lag[g] !== 0)).toEqual([]);
    expect(judgement.lag.filter((l) => l.verdict === 'fail')).toEqual([]);
    // every service's memory sampled throughout
    for (const s of samples) for (const app of APPS) expect(s.rss[app]).toBeGreaterThan(20);
    // no error line once the load started
    expect(result.logScan.errors).toEqual([]);
    expect(judgement.logs.verdict).toBe('pass');
    // the report and both charts, one line per service and per group
    for (const file of [files.report, files.memory, files.lag]) expect(existsSync(file)).toBe(true);
    expect(readFileSync(files.report, 'utf8')).toContain('![memory](memory.svg)');
    expect(readFileSync(files.memory, 'utf8').match(/<polyline /g)?.length).toBeGreaterThanOrEqual(APPS.length);
    expect(readFileSync(files.lag, 'utf8').match(/<polyline /g)?.length).toBeGreaterThanOrEqual(3);
  }, 150_000);
});
