import { LookupCache } from './lookup-cache';

describe('LookupCache', () => {
  it('reuses a found value until cleared, and asks again for a miss', async () => {
    const cache = new LookupCache<string>(60_000);
    const load = jest.fn((value: string | null) => Promise.resolve(value));
    await cache.get('a', () => load('first'));
    await expect(cache.get('a', () => load('second'))).resolves.toBe('first');
    await cache.get('b', () => load(null));
    await cache.get('b', () => load(null));
    expect(load).toHaveBeenCalledTimes(3);
    cache.clear();
    await expect(cache.get('a', () => load('after the change'))).resolves.toBe('after the change');
  });

  it('does not store a value whose lookup was under way when the cache was cleared', async () => {
    const cache = new LookupCache<string>(60_000);
    let answer!: (value: string) => void;
    const stale = cache.get('a', () => new Promise((resolve) => (answer = resolve)));
    cache.clear();
    answer('read before the change');
    await expect(stale).resolves.toBe('read before the change');
    await expect(cache.get('a', () => Promise.resolve('fresh'))).resolves.toBe('fresh');
  });

  it('asks again once the entry is older than its time to live', async () => {
    const cache = new LookupCache<string>(1);
    await cache.get('a', () => Promise.resolve('old'));
    const later = Date.now() + 5;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    await expect(cache.get('a', () => Promise.resolve('new'))).resolves.toBe('new');
    jest.restoreAllMocks();
  });
});

describe('LookupCache under concurrency', () => {
  it('loads a key once for concurrent lookups', async () => {
    const cache = new LookupCache<string>(60_000);
    const load = jest.fn(() => Promise.resolve('value'));
    await expect(Promise.all([1, 2, 3].map(() => cache.get('a', load)))).resolves.toEqual(['value', 'value', 'value']);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
