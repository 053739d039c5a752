import { ProblemException } from '../http/problem.exception';
import { CURSOR_ERROR, ListCursors } from './list-cursors';

describe('ListCursors', () => {
  const cursors = new ListCursors('test-cursor-secret');
  const agents = cursors.of('ten_A', 'agents');
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (err) {
      return err instanceof ProblemException ? err.problem : err;
    }
    return 'accepted';
  };

  it('reads back the position it encoded, as an opaque URL-safe string', () => {
    const cursor = agents.encode('agt_01JABCDEFGHJKMNPQRSTVWXYZ');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('agt_');
    expect(agents.decode(cursor)).toBe('agt_01JABCDEFGHJKMNPQRSTVWXYZ');
    expect(agents.after(cursor)).toBe('agt_01JABCDEFGHJKMNPQRSTVWXYZ');
    expect(cursors.of('ten_A', 'agents').decode(cursor)).toBe('agt_01JABCDEFGHJKMNPQRSTVWXYZ');
  });

  it('starts at the top without a cursor', () => {
    expect(agents.after(null)).toBeNull();
    expect(agents.after(undefined)).toBeNull();
  });

  it('refuses a cursor of another list, another tenant or another key', () => {
    const cursor = agents.encode('agt_1');
    expect(cursors.of('ten_A', 'api-keys').decode(cursor)).toBeNull();
    expect(cursors.of('ten_B', 'agents').decode(cursor)).toBeNull();
    expect(new ListCursors('another-secret').of('ten_A', 'agents').decode(cursor)).toBeNull();
    // The scope is not just concatenated: moving characters between tenant and list changes it.
    expect(cursors.of('ten_Aa', 'gents').decode(cursor)).toBeNull();
  });

  it('refuses an edited cursor: a changed position, a changed tag, extra or missing characters', () => {
    const cursor = agents.encode('agt_5');
    const bytes = Buffer.from(cursor, 'base64url');
    const flip = (i: number) => Buffer.from(bytes.map((b, j) => (j === i ? b ^ 1 : b))).toString('base64url');
    expect(agents.decode(flip(bytes.length - 1))).toBeNull();
    expect(agents.decode(flip(0))).toBeNull();
    expect(agents.decode(`${cursor}A`)).toBeNull();
    expect(agents.decode(cursor.slice(0, -1))).toBeNull();
    // A position spliced onto a real tag is not a cursor either.
    expect(agents.decode(Buffer.concat([bytes.subarray(0, 12), Buffer.from('agt_9')]).toString('base64url'))).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['garbage', 'not-a-cursor!'],
    ['a bare id', 'agt_01JABCDEFGHJKMNPQRSTVWXYZ'],
    ['a number', '42'],
    ['base64 with padding', 'YWJjZA=='],
    ['too long', 'A'.repeat(201)],
  ])('refuses %s with a 400 naming cursor', (_, cursor) => {
    expect(agents.decode(cursor)).toBeNull();
    expect(refusal(() => agents.after(cursor))).toMatchObject({ status: 400, errors: [CURSOR_ERROR] });
  });

  it('refuses what is not a string', () => {
    for (const value of [42, {}, ['a'], true]) expect(agents.decode(value)).toBeNull();
  });

  it('gives the next cursor only when the page read one row more than the limit', () => {
    const rows = [{ id: 'agt_3' }, { id: 'agt_2' }, { id: 'agt_1' }];
    const next = agents.next(rows, 2, (r) => r.id);
    expect(next && agents.decode(next)).toBe('agt_2');
    expect(agents.next(rows, 3, (r) => r.id)).toBeNull();
    expect(agents.next([], 50, (r: { id: string }) => r.id)).toBeNull();
  });
});
