import { GroupCommit } from './group-commit';

/** A write that waits until released, recording each batch it was given. */
function gatedWrite() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const write = async (items: number[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => gates.push(resolve));
    return items.map((n) => n * 10);
  };
  return { batches, write, release: () => gates.shift()?.() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes items added in the same turn together and answers each caller its own result', async () => {
    const writes: number[][] = [];
    const batches = new GroupCommit<number, number>((items) => {
      writes.push(items);
      return Promise.resolve(items.map((n) => n * 10));
    });
    await expect(Promise.all([1, 2, 3].map((n) => batches.add(n)))).resolves.toEqual([10, 20, 30]);
    expect(writes).toEqual([[1, 2, 3]]);
  });

  it('collects items added during a write into the next one, at most maxBatch per write', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const firstWrite = new Promise<void>((resolve) => (release = resolve));
    const batches = new GroupCommit<number, number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await firstWrite;
      return items;
    }, { maxBatch: 2 });
    const first = batches.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((n) => batches.add(n));
    release();
    await expect(Promise.all([first, ...later])).resolves.toEqual([1, 2, 3, 4]);
    expect(writes).toEqual([[1], [2, 3], [4]]);
  });

  it('writes a failed batch again item by item, so only the bad item fails', async () => {
    const batches = new GroupCommit<number, number>((items) => (items.includes(2) && items.length > 1 ? Promise.reject(new Error('batch')) : items.includes(2) ? Promise.reject(new Error('bad item')) : Promise.resolve(items)));
    const results = await Promise.allSettled([1, 2, 3].map((n) => batches.add(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 'bad item', 3]);
  });

  it('writes a failed batch again one item at a time, in the order the items were added', async () => {
    const writes: number[][] = [];
    let running = 0;
    const batches = new GroupCommit<number, number>(async (items) => {
      writes.push(items);
      if (++running > 1) throw new Error('two writes at once');
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      if (items.length > 1) throw new Error('batch');
      return items;
    });
    await expect(Promise.all([1, 2, 3].map((n) => batches.add(n)))).resolves.toEqual([1, 2, 3]);
    expect(writes).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('writes what arrives in one turn together, then everything that queued meanwhile as one batch', async () => {
    const { batches, write, release } = gatedWrite();
    const commits = new GroupCommit(write, { maxBatch: 100 });
    const first = [commits.add(1), commits.add(2)];
    await settle();
    const queued = [commits.add(3), commits.add(4), commits.add(5)];
    await settle();
    expect(batches).toEqual([[1, 2]]);
    release();
    await expect(Promise.all(first)).resolves.toEqual([10, 20]);
    await settle();
    expect(batches).toEqual([[1, 2], [3, 4, 5]]);
    release();
    await expect(Promise.all(queued)).resolves.toEqual([30, 40, 50]);
  });

  it('never puts more than maxBatch items in one write', async () => {
    const batches: number[][] = [];
    const commits = new GroupCommit(async (items: number[]) => (batches.push(items), items), { maxBatch: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => commits.add(n)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails each item whose write fails alone too, and writes later items again', async () => {
    let fail = true;
    const commits = new GroupCommit(async (items: number[]) => {
      if (fail) throw new Error('database down');
      return items;
    }, { maxBatch: 10 });
    const failed = [commits.add(1), commits.add(2)];
    await expect(Promise.allSettled(failed)).resolves.toEqual([
      { status: 'rejected', reason: new Error('database down') },
      { status: 'rejected', reason: new Error('database down') },
    ]);
    fail = false;
    await expect(commits.add(3)).resolves.toBe(3);
  });

  it('with lingerMs, writes items added over the next milliseconds together, not only those of one turn', async () => {
    jest.useFakeTimers();
    try {
      const batches: number[][] = [];
      const commits = new GroupCommit(async (items: number[]) => (batches.push(items), items), { lingerMs: 5 });
      const added = [commits.add(1)];
      await jest.advanceTimersByTimeAsync(3);
      added.push(commits.add(2));
      expect(batches).toEqual([]);
      await jest.advanceTimersByTimeAsync(2);
      await expect(Promise.all(added)).resolves.toEqual([1, 2]);
      expect(batches).toEqual([[1, 2]]);
    } finally {
      jest.useRealTimers();
    }
  });
});
