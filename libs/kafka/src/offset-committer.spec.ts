import { OffsetCommitter, type PartitionOffset } from './offset-committer';

describe('OffsetCommitter', () => {
  let commits: PartitionOffset[][];
  let failNext: boolean;
  let errors: unknown[];
  let committer: OffsetCommitter;

  beforeEach(() => {
    jest.useFakeTimers();
    commits = [];
    failNext = false;
    errors = [];
    committer = new OffsetCommitter(
      async (offsets) => {
        if (failNext) {
          failNext = false;
          throw new Error('The coordinator is not aware of this member');
        }
        commits.push(offsets);
      },
      1000,
      (err) => errors.push(err),
    );
  });

  afterEach(() => {
    committer.stop();
    jest.useRealTimers();
  });

  it('commits the handled offsets of an interval together, each partition at its next offset to read', async () => {
    committer.handled('t', 0, '4');
    committer.handled('t', 0, '5');
    committer.handled('t', 3, '9');
    committer.handled('u', 1, '0');
    expect(commits).toEqual([]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(commits).toEqual([
      [
        { topic: 't', partition: 0, offset: '6' },
        { topic: 't', partition: 3, offset: '10' },
        { topic: 'u', partition: 1, offset: '1' },
      ],
    ]);
  });

  it('arms no timer while nothing is pending, and commits nothing twice', async () => {
    expect(jest.getTimerCount()).toBe(0);
    committer.handled('t', 0, '1');
    await jest.advanceTimersByTimeAsync(1000);
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(commits).toHaveLength(1);
    expect(committer.hasPending).toBe(false);
  });

  it('commits at once on flush (rebalance, shutdown)', async () => {
    committer.handled('t', 2, '41');
    await committer.flush();
    expect(commits).toEqual([[{ topic: 't', partition: 2, offset: '42' }]]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('keeps a failed commit and retries it, unless a later handled offset replaced it', async () => {
    committer.handled('t', 0, '7');
    committer.handled('t', 1, '3');
    failNext = true;
    await committer.flush();
    expect(errors).toHaveLength(1);
    committer.handled('t', 1, '5');
    await jest.advanceTimersByTimeAsync(1000);
    expect(commits).toEqual([
      [
        { topic: 't', partition: 0, offset: '8' },
        { topic: 't', partition: 1, offset: '6' },
      ],
    ]);
  });

  it('forgets partitions that a rebalance gave to another member', async () => {
    committer.handled('t', 0, '7');
    committer.handled('t', 1, '3');
    committer.handled('u', 0, '1');
    committer.retain({ t: [1] });
    await committer.flush();
    expect(commits).toEqual([[{ topic: 't', partition: 1, offset: '4' }]]);
  });

  it('handles offsets beyond 2^53 exactly', async () => {
    committer.handled('t', 0, '9007199254740993');
    await committer.flush();
    expect(commits[0][0].offset).toBe('9007199254740994');
  });
});
