import { RefreshingCache } from './refreshing-cache';

/** A load the test answers when it chooses, counting how often it was asked. */
function pendingLoads<V>() {
  const waiting: ((value: V) => void)[] = [];
  return {
    load: () => new Promise<V>((resolve) => waiting.push(resolve)),
    get asked() {
      return waiting.length;
    },
    answer: (n: number, value: V) => waiting[n](value),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RefreshingCache', () => {
  let clock: number;
  let refreshErrors: unknown[];
  const cache = () => new RefreshingCache<string>({ freshMs: 1500, usableMs: 3000, maxEntries: 10, onRefreshError: (_key, err) => refreshErrors.push(err), now: () => clock });

  beforeEach(() => {
    clock = 1_000_000;
    refreshErrors = [];
  });

  it('answers a fresh entry without loading', async () => {
    const c = cache();
    await c.get('a', async () => 'v1');
    clock += 1499;
    const load = jest.fn(async () => 'v2');
    expect(await c.get('a', load)).toBe('v1');
    expect(load).not.toHaveBeenCalled();
  });

  it('answers a stale but usable entry at once, refreshing it once in the background with the background load', async () => {
    const c = cache();
    await c.get('a', async () => 'v1');
    clock += 2000;
    const waited = jest.fn(async () => 'never');
    const background = pendingLoads<string>();
    // three callers meanwhile: all answered at once from the stale entry, one refresh between them
    expect(await c.get('a', waited, background.load)).toBe('v1');
    expect(await c.get('a', waited, background.load)).toBe('v1');
    expect(await c.get('a', waited, background.load)).toBe('v1');
    expect(waited).not.toHaveBeenCalled();
    expect(background.asked).toBe(1);
    background.answer(0, 'v2');
    await settle();
    expect(await c.get('a', waited)).toBe('v2');
  });

  it('makes a caller wait for the load once an entry is too old to answer (or there is none)', async () => {
    const c = cache();
    const first = pendingLoads<string>();
    const got = c.get('a', first.load);
    expect(first.asked).toBe(1);
    first.answer(0, 'v1');
    expect(await got).toBe('v1');
    clock += 3000;
    const background = jest.fn(async () => 'never');
    expect(await c.get('a', async () => 'v2', background)).toBe('v2');
    expect(background).not.toHaveBeenCalled();
  });

  it('ages an entry from when its load began: what it read is at least that old', async () => {
    const c = cache();
    const slow = pendingLoads<string>();
    const got = c.get('a', slow.load);
    clock += 1000;
    slow.answer(0, 'v1');
    await got;
    clock += 600; // 1,600 ms after the read began, 600 after it ended
    const background = jest.fn(async () => 'v2');
    expect(await c.get('a', async () => 'never', background)).toBe('v1');
    expect(background).toHaveBeenCalledTimes(1);
  });

  it('does not keep what a load read before an invalidation overtook it', async () => {
    const c = cache();
    const before = pendingLoads<string>();
    const got = c.get('a', before.load);
    c.invalidate('a'); // the change committed while the read was under way
    before.answer(0, 'old');
    expect(await got).toBe('old'); // its caller asked before the change
    expect(await c.get('a', async () => 'new')).toBe('new');
  });

  it('keeps answering a usable entry when its refresh fails, and says so', async () => {
    const c = cache();
    await c.get('a', async () => 'v1');
    clock += 2000;
    expect(await c.get('a', async () => 'never', async () => Promise.reject(new Error('connection lost')))).toBe('v1');
    await settle();
    expect(refreshErrors).toEqual([new Error('connection lost')]);
    // a later caller within the usable age tries again
    expect(await c.get('a', async () => 'never', async () => 'v2')).toBe('v1');
    await settle();
    expect(await c.get('a', async () => 'never')).toBe('v2');
  });
});
