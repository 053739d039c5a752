import { ConcurrencyLimit } from './concurrency-limit';

/** A task that runs until `finish()` is called. */
function gate(): { promise: Promise<void>; finish: () => void } {
  let finish!: () => void;
  const promise = new Promise<void>((resolve) => (finish = resolve));
  return { promise, finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('runs at most the limit at once and starts the waiting in the order they came as slots free', async () => {
    const limit = new ConcurrencyLimit(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limit.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    gates[1].finish();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    // a newcomer waits behind those already waiting
    const late = limit.run(async () => {
      started.push(4);
      return 4;
    });
    gates[0].finish();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2].finish();
    gates[3].finish();
    expect(await Promise.all([...runs, late])).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('frees the slot of a task that failed', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('draft failed')))).rejects.toThrow('draft failed');
    expect(await limit.run(async () => 'next')).toBe('next');
  });
});
