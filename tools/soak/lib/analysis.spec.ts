import { deliveryVerdicts, judge, lagVerdicts, linearFit, memoryVerdicts, parseDuration, parseRates, type Counts, type Sample } from './analysis.cjs';

/** Samples every 10 s over `seconds` of load, then `drain` samples; rss/lag given as functions of t. */
function series(seconds: number, rss: (t: number) => number, lag: (t: number) => number, drain: number[] = [0]): Sample[] {
  const samples: Sample[] = [];
  for (let t = 0; t <= seconds; t += 10) samples.push({ t, phase: 'load', rss: { svc: rss(t) }, lag: { group: lag(t) } });
  drain.forEach((value, i) => samples.push({ t: seconds + 5 * (i + 1), phase: 'drain', rss: { svc: rss(seconds) }, lag: { group: value } }));
  return samples;
}

const wobble = (t: number) => 3 * Math.sin(t / 37);

const counts = (overrides: Partial<Counts> = {}): Counts => ({
  sendsOffered: 100, sendsAccepted: 100, sendsFailed: 0, sendsAtSandbox: 100, sendsDuplicatedAtSandbox: 0,
  inboundOffered: 50, inboundAccepted: 50, inboundFailed: 0, inboundReceived: 50, duplicateEvents: 0, repliesAtSandbox: 50,
  customersWrote: 50, customersAnswered: 50, customersOverAnswered: 0,
  readsOffered: 20, readsOk: 20, readsFailed: 0, readsNotYetStored: 0, agentChangesOffered: 2, agentChangesOk: 2, agentChangesFailed: 0,
  badSignatures: 0, serviceExits: 0, ...overrides,
});

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['1500ms', 1500],
    ['25', 25_000],
    ['2.5m', 150_000],
  ])('%s → %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', 'ten minutes', '10x', '0s', '-5m'])('rejects %p', (text) => expect(() => parseDuration(text)).toThrow(/duration/));
});

describe('parseRates', () => {
  it('keeps the defaults without an option', () => expect(parseRates(undefined)).toEqual({ send: 20, inbound: 20, read: 10 }));
  it('takes one number for sends and inbound, half of it for reads', () => expect(parseRates('8')).toEqual({ send: 8, inbound: 8, read: 4 }));
  it('takes kinds by name (plural allowed), the rest keep their defaults', () =>
    expect(parseRates('sends=5,read=0')).toEqual({ send: 5, inbound: 20, read: 0 }));
  it('rejects an unknown kind or a malformed rate', () => {
    expect(() => parseRates('writes=5')).toThrow(/not a rate/);
    expect(() => parseRates('send=fast')).toThrow(/not a rate/);
  });
});

describe('linearFit', () => {
  it('finds slope and intercept of points on a line', () => {
    const { slope, intercept } = linearFit([[0, 1], [10, 21], [20, 41]]);
    expect(slope).toBeCloseTo(2);
    expect(intercept).toBeCloseTo(1);
  });
  it('is flat for a single point or constant x', () => {
    expect(linearFit([[5, 3]]).slope).toBe(0);
    expect(linearFit([[5, 3], [5, 9]]).slope).toBe(0);
  });
});

describe('memoryVerdicts', () => {
  it('passes a service whose memory only wobbles after a warm-up climb', () => {
    // climbs 60 MB in the first 2 minutes (warm-up: caches, JIT), then flat with GC noise
    const [m] = memoryVerdicts(series(1800, (t) => 100 + Math.min(t, 120) / 2 + wobble(t), () => 0), ['svc']);
    expect(m.verdict).toBe('pass');
    expect(Math.abs(m.slopeMbPer10Min!)).toBeLessThan(1);
    expect(m.first).toBe(100);
    expect(m.peak).toBeGreaterThanOrEqual(160);
  });

  it('fails a leak of 12 MB per 10 minutes, naming the slope', () => {
    const [m] = memoryVerdicts(series(1800, (t) => 150 + (t / 600) * 12 + wobble(t), () => 0), ['svc']);
    expect(m.verdict).toBe('fail');
    expect(m.slopeMbPer10Min).toBeCloseTo(12, 0);
    expect(m.reasons.join()).toMatch(/grows 1[12]\.\d MB per 10 min/);
  });

  it('fails a service that ends above its start by more than the margin even under the slope limit', () => {
    const [m] = memoryVerdicts(series(1800, (t) => (t > 1500 ? 200 : 150), () => 0), ['svc'], { slopeLimitMbPer10Min: 100 });
    expect(m.verdict).toBe('fail');
    expect(m.reasons.join()).toMatch(/ends 50 MB above its start/);
  });

  it('calls a short window inconclusive rather than extrapolating GC noise', () => {
    const [m] = memoryVerdicts(series(40, (t) => 100 + t, () => 0), ['svc']);
    expect(m.verdict).toBe('inconclusive');
    expect(m.reasons).toEqual([expect.stringMatching(/steady window \(\d+ s\) is shorter than 600 s/)]);
  });

  it('ignores samples where the process was gone', () => {
    const samples = series(1800, () => 120, () => 0).map((s, i) => (i % 7 === 0 ? { ...s, rss: { svc: null } } : s));
    expect(memoryVerdicts(samples, ['svc'])[0].verdict).toBe('pass');
  });
});

describe('lagVerdicts', () => {
  it('passes lag that moves around but returns to 0 after the load', () => {
    const [l] = lagVerdicts(series(1800, () => 100, (t) => Math.round(20 + 15 * Math.sin(t / 50))), ['group']);
    expect(l.verdict).toBe('pass');
    expect(l.last).toBe(0);
    expect(l.maxDuringLoad).toBeGreaterThan(30);
  });

  it('fails lag that keeps growing during the load, even if it drains afterwards', () => {
    const [l] = lagVerdicts(series(1800, () => 100, (t) => Math.round(t / 2)), ['group']);
    expect(l.verdict).toBe('fail');
    expect(l.reasons.join()).toMatch(/grew by about \d+ messages/);
  });

  it('fails lag that is not back to 0 at the end', () => {
    const [l] = lagVerdicts(series(600, () => 100, () => 5, [40, 12]), ['group']);
    expect(l.verdict).toBe('fail');
    expect(l.reasons).toEqual(['still 12 behind at the end (tolerance 0)']);
  });

  it('fails a group that was never sampled', () => {
    expect(lagVerdicts(series(600, () => 100, () => 0), ['other'])[0].reasons).toEqual(['never sampled']);
  });
});

describe('deliveryVerdicts and judge', () => {
  const clean = { errors: [], warnings: [], startup: [] };

  it('passes when everything accepted arrived and nothing failed', () => {
    expect(deliveryVerdicts(counts()).every((d) => d.verdict === 'pass')).toBe(true);
    expect(judge({ samples: series(1800, () => 100, () => 0), services: ['svc'], groups: ['group'], counts: counts(), logScan: clean }).passed).toBe(true);
  });

  it.each([
    ['a lost send', { sendsAtSandbox: 99 }, 'every accepted send reached the sandbox'],
    ['a lost message.received', { inboundReceived: 49 }, "every accepted inbound message's message.received reached the receiver"],
    ['a send delivered twice', { sendsDuplicatedAtSandbox: 1 }, 'no accepted send reached the sandbox twice'],
    ['an inbound message announced twice', { duplicateEvents: 1 }, 'no inbound message announced twice'],
    ['a customer left without a reply', { customersAnswered: 49 }, 'every customer who wrote got a reply'],
    ['a customer answered twice', { customersOverAnswered: 1 }, 'no customer got more replies than messages written'],
    ['a failed read', { readsFailed: 1 }, 'every request answered 2xx'],
    ['a bad signature', { badSignatures: 1 }, 'every webhook signature valid'],
    ['a service exit', { serviceExits: 1 }, 'no service exited'],
  ])('fails %s', (_, overrides, name) => {
    const failed = deliveryVerdicts(counts(overrides)).filter((d) => d.verdict === 'fail');
    expect(failed.map((d) => d.name)).toEqual([name]);
    expect(judge({ samples: series(1800, () => 100, () => 0), services: ['svc'], groups: ['group'], counts: counts(overrides), logScan: clean }).passed).toBe(false);
  });

  it('fails on an error line in the logs but not on start-up lines or warnings', () => {
    const input = { samples: series(1800, () => 100, () => 0), services: ['svc'], groups: ['group'], counts: counts() };
    const entry = { app: 'svc', kind: 'error' as const, msg: 'boom', line: '{}' };
    expect(judge({ ...input, logScan: { errors: [], warnings: [{ ...entry, kind: 'warn' }], startup: [entry] } }).passed).toBe(true);
    const judged = judge({ ...input, logScan: { errors: [entry], warnings: [], startup: [] } });
    expect(judged.passed).toBe(false);
    expect(judged.logs).toEqual({ verdict: 'fail', errors: 1, warnings: 0, startup: 0 });
  });

  it('does not fail a run on inconclusive memory', () => {
    const judged = judge({ samples: series(40, (t) => 100 + t, () => 0), services: ['svc'], groups: ['group'], counts: counts(), logScan: clean });
    expect(judged.memory[0].verdict).toBe('inconclusive');
    expect(judged.passed).toBe(true);
  });
});
