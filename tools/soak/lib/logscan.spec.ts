import { classifyLine, groupEntries, scanLines } from './logscan.cjs';

const pino = (level: number, msg: string, extra: object = {}) => JSON.stringify({ level, time: 1000, service: 'svc', msg, ...extra });

describe('classifyLine', () => {
  it('reports pino error and fatal lines as errors, warn lines as warnings, and the rest not at all', () => {
    expect(classifyLine(pino(50, 'store failed'))).toMatchObject({ kind: 'error', level: 50, msg: 'store failed', time: 1000 });
    expect(classifyLine(pino(60, 'dying'))).toMatchObject({ kind: 'error', level: 60 });
    expect(classifyLine(pino(40, 'slow'))).toMatchObject({ kind: 'warn', level: 40 });
    expect(classifyLine(pino(30, 'request completed'))).toBeNull();
  });

  it("adds the error's message to the summary", () => {
    expect(classifyLine(pino(50, 'publish failed', { err: { message: 'broker gone' } }))?.msg).toBe('publish failed: broker gone');
  });

  it('judges plain-text lines by their words: a stack trace or an error counts, the supervisor marker does not', () => {
    expect(classifyLine('    at Object.<anonymous> (/app/main.js:1:1)')?.kind).toBe('error');
    expect(classifyLine('Error: connect ECONNREFUSED 127.0.0.1:5432')?.kind).toBe('error');
    expect(classifyLine('--- 2026-01-01T00:00:00Z starting gateway on port 3000 ---')).toBeNull();
    expect(classifyLine('listening on 3000')).toBeNull();
  });
});

describe('scanLines', () => {
  it('puts lines stamped before the load started into start-up, the rest into errors and warnings', () => {
    const lines = [pino(50, 'not the leader', { time: 10 }), pino(50, 'lost', { time: 100 }), pino(40, 'slow', { time: 200 }), 'Unhandled rejection'];
    const scan = scanLines('svc', lines, undefined, 50);
    expect(scan.startup.map((e) => e.msg)).toEqual(['not the leader']);
    expect(scan.errors.map((e) => e.msg)).toEqual(['lost', 'Unhandled rejection']);
    expect(scan.warnings.map((e) => e.msg)).toEqual(['slow']);
  });
});

describe('groupEntries', () => {
  it('groups lines that differ only by an id', () => {
    const e = (msg: string) => ({ app: 'messaging-service', kind: 'warn' as const, msg, line: msg });
    const groups = groupEntries([e('msg_01M80SQ1T8K741VRAAQVZFAK17 accepted twice (wamid.5CVM_iZeRhCdABaFDaUueMeBlrvoE8XL)'), e('msg_01M80SQ31VM8CQ620FF5NEAYPX accepted twice (wamid.-86ls6AegzssLk2JitI7aamj7SrbYgyx)')]);
    expect(groups.map((g) => g.count)).toEqual([2]);
  });

  it('groups by service and message with numbers ignored, most frequent first', () => {
    const e = (app: string, msg: string) => ({ app, kind: 'error' as const, msg, line: msg });
    expect(groupEntries([e('a', 'x'), e('b', 'retry 1 of 3'), e('b', 'retry 2 of 3'), e('a', 'x'), e('b', 'retry 3 of 3')]).map((g) => [g.app, g.count])).toEqual([
      ['b', 3],
      ['a', 2],
    ]);
  });
});
