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

describe('GroupCommit: items added while a write runs share the next write', () => {
  it('writes what arrives in one turn together, then everything that queued meanwhile as one batch', async () => {
    const { batches, write, release } = gatedWrite();
    const commits = new GroupCommit(write, 100);
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
    const commits = new GroupCommit(async (items: number[]) => (batches.push(items), items), 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => commits.add(n)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails every item of a failed write, and writes later items again', async () => {
    let fail = true;
    const commits = new GroupCommit(async (items: number[]) => {
      if (fail) throw new Error('database down');
      return items;
    }, 10);
    const failed = [commits.add(1), commits.add(2)];
    await expect(Promise.allSettled(failed)).resolves.toEqual([
      { status: 'rejected', reason: new Error('database down') },
      { status: 'rejected', reason: new Error('database down') },
    ]);
    fail = false;
    await expect(commits.add(3)).resolves.toBe(3);
  });
});
