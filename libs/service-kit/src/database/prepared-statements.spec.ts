import { PreparedStatementNames } from './prepared-statements';

describe('PreparedStatementNames', () => {
  it('names a text from its second use on, the same name every time after', () => {
    const names = new PreparedStatementNames();
    const text = 'SELECT id FROM messages WHERE tenant_id = $1 AND id = $2';
    expect(names.nameFor(text)).toBeUndefined();
    const name = names.nameFor(text);
    expect(name).toMatch(/^parley_\d+$/);
    expect(names.nameFor(text)).toBe(name);
    expect(names.nameFor('UPDATE messages SET status = $2 WHERE id = $1')).toBeUndefined();
  });

  it('names no more texts than its cap; those named keep their names', () => {
    const names = new PreparedStatementNames(2);
    const texts = ['SELECT $1::int', 'SELECT $1::text', 'SELECT $1::bigint'];
    for (const text of [...texts, ...texts]) names.nameFor(text);
    const named = texts.map((t) => names.nameFor(t));
    expect(named.filter((n) => n !== undefined)).toHaveLength(2);
    expect(names.nameFor(texts[2])).toBeUndefined();
    expect(names.nameFor(texts[0])).toBe(named[0]);
  });

  it('runs a forgotten text unnamed from then on, and never gives its name to another text', () => {
    const names = new PreparedStatementNames();
    const stale = 'SELECT * FROM contacts WHERE id = $1';
    names.nameFor(stale);
    const old = names.nameFor(stale);
    names.forget(stale);
    expect(names.nameFor(stale)).toBeUndefined();
    expect(names.nameFor(stale)).toBeUndefined();
    const other = 'SELECT * FROM deals WHERE id = $1';
    names.nameFor(other);
    expect(names.nameFor(other)).not.toBe(old);
  });
});
