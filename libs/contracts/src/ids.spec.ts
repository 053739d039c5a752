import { derivedId, hasPrefix, newId } from './ids';

describe('ids', () => {
  it('makes prefixed, time-ordered ids', () => {
    const a = newId('msg');
    const b = newId('msg');
    expect(hasPrefix(a, 'msg')).toBe(true);
    expect(a < b || a.slice(0, 14) === b.slice(0, 14)).toBe(true);
  });

  it('derives the same id from the same parts, and another from other parts', () => {
    expect(derivedId('msg', 'ten_1', 'key-1')).toBe(derivedId('msg', 'ten_1', 'key-1'));
    expect(derivedId('msg', 'ten_1', 'key-1')).not.toBe(derivedId('msg', 'ten_2', 'key-1'));
    // parts are delimited, so shifting a character between parts changes the id
    expect(derivedId('msg', 'ab', 'c')).not.toBe(derivedId('msg', 'a', 'bc'));
    expect(hasPrefix(derivedId('evt', 'x'), 'evt')).toBe(true);
  });
});
