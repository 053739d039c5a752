import { ApiKeyCache } from './api-key-cache';

describe('ApiKeyCache', () => {
  let now = 0;
  const cache = () => new ApiKeyCache(2000, 2, () => now);

  beforeEach(() => {
    now = 1_000_000;
  });

  it('answers from the cache until the entry is older than its TTL, negatives included', () => {
    const c = cache();
    c.set('a', 'ten_A');
    c.set('b', null);
    expect(c.get('a')).toBe('ten_A');
    expect(c.get('b')).toBeNull();
    now += 1999;
    expect(c.get('a')).toBe('ten_A');
    now += 1;
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBeUndefined();
  });

  it('forgets a deleted key at once and evicts the oldest entry when full', () => {
    const c = cache();
    c.set('a', 'ten_A');
    c.delete('a');
    expect(c.get('a')).toBeUndefined();
    c.set('a', 'ten_A');
    c.set('b', 'ten_B');
    c.set('c', 'ten_C');
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBe('ten_B');
    expect(c.get('c')).toBe('ten_C');
  });
});
