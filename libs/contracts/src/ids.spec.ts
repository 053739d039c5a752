import { derivedId, hasPrefix, newId } from './ids';

describe('ids', () => {
  it('makes prefixed, time-ordered ids', () => {
    const a = newId('msg');
    const b = newId('msg');
    expect(hasPrefix(a, 'msg')).toBe(true);
    expect(a < b || a.slice(0, 14) === b.slice(0, 14)).toBe(true);
  });

  it('makes unique ids with evenly drawn random characters', () => {
    const ids = Array.from({ length: 20_000 }, () => newId('evt'));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => hasPrefix(id, 'evt'))).toBe(true);
    // every Crockford character appears in the random part (a biased or stuck source would miss some)
    expect(new Set(ids.flatMap((id) => [...id.slice(14)])).size).toBe(32);
  });

  it('derives the same id from the same parts, and another from other parts', () => {
    expect(derivedId('msg', 'ten_1', 'key-1')).toBe(derivedId('msg', 'ten_1', 'key-1'));
    expect(derivedId('msg', 'ten_1', 'key-1')).not.toBe(derivedId('msg', 'ten_2', 'key-1'));
    // parts are delimited, so shifting a character between parts changes the id
    expect(derivedId('msg', 'ab', 'c')).not.toBe(derivedId('msg', 'a', 'bc'));
    expect(hasPrefix(derivedId('evt', 'x'), 'evt')).toBe(true);
  });
});
