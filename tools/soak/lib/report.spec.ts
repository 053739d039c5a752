import { judge, type Counts, type Sample } from './analysis.cjs';
import { lagOverTime, pickSamples, renderCharts, renderMarkdown, renderText, textTable, verdictLines, type SoakResult } from './report.cjs';

const counts: Counts = {
  sendsOffered: 10, sendsAccepted: 10, sendsFailed: 0, sendsAtSandbox: 10, sendsDuplicatedAtSandbox: 0,
  inboundOffered: 8, inboundAccepted: 8, inboundFailed: 0, inboundReceived: 7, duplicateEvents: 0, repliesAtSandbox: 8,
  customersWrote: 8, customersAnswered: 8, customersOverAnswered: 0,
  readsOffered: 4, readsOk: 4, readsFailed: 0, readsNotYetStored: 0, agentChangesOffered: 1, agentChangesOk: 1, agentChangesFailed: 0,
  badSignatures: 0, serviceExits: 0,
};

function result(): SoakResult {
  const samples: Sample[] = [];
  for (let t = 0; t <= 1200; t += 10) samples.push({ t, phase: 'load', rss: { gateway: 150, 'webhook-service': 120 + t / 400 }, lag: { 'messaging-service': t % 30 } });
  samples.push({ t: 1205, phase: 'drain', rss: { gateway: 150, 'webhook-service': 123 }, lag: { 'messaging-service': 0 } });
  const logScan = { errors: [{ app: 'gateway', kind: 'error' as const, msg: 'boom', line: '{}' }], warnings: [], startup: [] };
  const base = { samples, services: ['gateway', 'webhook-service'], groups: ['messaging-service'], counts, logScan };
  return {
    startedAt: '2026-11-22T05:00:00.000Z', rates: { send: 20, inbound: 20, read: 10 }, loadSeconds: 1200, drainSeconds: 5, sampleSeconds: 10,
    agentChangeSeconds: 30, warmupShare: 0.2, tenants: 3, machine: 'test machine', ...base, judgement: judge(base),
  };
}

describe('textTable', () => {
  it('aligns columns and shows missing values as –', () => {
    expect(textTable(['a', 'bb'], [['x', 1], ['yyy', null]]).split('\n')).toEqual(['a    bb', '---  --', 'x     1', 'yyy   –']);
  });
});

describe('pickSamples and lagOverTime', () => {
  it('keeps the first, the last load and the very last sample, marking drain samples', () => {
    const r = result();
    const picked = pickSamples(r.samples, 5);
    expect(picked).toHaveLength(5);
    expect(picked[0].t).toBe(0);
    expect(picked.map((s) => s.t)).toEqual(expect.arrayContaining([1200, 1205]));
    const { headers, rows } = lagOverTime(r.samples, r.judgement.lag, 5);
    expect(headers).toContain('20:05*');
    expect(rows[0][0]).toBe('messaging-service');
    expect(rows[0][rows[0].length - 1]).toBe('pass');
  });
});

describe('renderText and renderMarkdown', () => {
  it('show the memory, lag and traffic tables and every verdict, failed ones named', () => {
    const r = result();
    const text = renderText(r);
    expect(text).toMatch(/gateway\s+150\s+150\s+150\s+150\s+0\s+pass/);
    expect(text).toContain('FAIL  every accepted inbound message');
    expect(text).toContain('7 of 8 at the receiver');
    expect(text).toContain('FAIL  no error lines');
    expect(text.trim().endsWith('FAILED')).toBe(true);
    const md = renderMarkdown(r);
    expect(md).toContain('![memory](memory.svg)');
    expect(md).toContain('![lag](lag.svg)');
    expect(md).toContain('| gateway | 1 | boom |');
    expect(md).toContain('Result: **FAILED**');
  });
});

describe('verdictLines', () => {
  it('notes reads of a message that was not stored yet without failing on them', () => {
    const r = result();
    expect(verdictLines(r.judgement, { ...counts, readsNotYetStored: 3 }).find((l) => l.startsWith('NOTE'))).toMatch(/^NOTE {2}3 reads of a message accepted at least 5 s earlier answered 404/);
    expect(verdictLines(r.judgement, counts).some((l) => l.startsWith('NOTE'))).toBe(false);
  });
});

describe('renderCharts', () => {
  it('draws one line per service and one per consumer group, with the warm-up and load-end markers', () => {
    const { memory, lag } = renderCharts(result());
    expect(memory.match(/<polyline /g)).toHaveLength(2);
    expect(lag.match(/<polyline /g)).toHaveLength(1);
    for (const svg of [memory, lag]) {
      expect(svg).toContain('warm-up ends');
      expect(svg).toContain('load stops');
    }
    expect(memory).toContain('RSS (MB)');
    expect(lag).toContain('lag (messages)');
  });
});
