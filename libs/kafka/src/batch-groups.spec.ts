import { OffsetWatermark, groupByKey, runBounded } from './batch-groups';

describe('batch grouping', () => {
  const msg = (offset: string, key: string | null) => ({ offset, key: key === null ? null : Buffer.from(key) });

  it('groups by key in order of first appearance, keeping partition order inside a group', () => {
    const groups = groupByKey([msg('1', 'a'), msg('2', 'b'), msg('3', 'a'), msg('4', null), msg('5', 'b')]);
    expect([...groups.entries()].map(([k, ms]) => [k, ms.map((m) => m.offset)])).toEqual([
      ['a', ['1', '3']],
      ['b', ['2', '5']],
      ['', ['4']],
    ]);
  });

  it('resolves offsets only up to the first message not yet handled', () => {
    const watermark = new OffsetWatermark(['1', '2', '3', '4', '5']);
    expect(watermark.settle(['1', '3'])).toBe('1'); // group a: 2 is still pending, so 3 must not be committed
    expect(watermark.settle(['4'])).toBeNull();
    expect(watermark.settle(['2', '5'])).toBe('5');
  });

  describe('runBounded', () => {
    const gate = () => {
      let open: () => void = () => undefined;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { opened, open };
    };

    it('runs up to the limit at once, starting the next as soon as one finishes', async () => {
      const gates = [gate(), gate(), gate()];
      const started: number[] = [];
      const done = runBounded([0, 1, 2], 2, () => true, async (i) => {
        started.push(i);
        await gates[i].opened;
      });
      await new Promise((r) => setImmediate(r));
      expect(started).toEqual([0, 1]); // both side by side; the third waits for a free slot
      gates[1].open();
      await new Promise((r) => setImmediate(r));
      expect(started).toEqual([0, 1, 2]);
      gates[0].open();
      gates[2].open();
      await done;
    });

    it('starts nothing more once told to stop or after a failure, yet waits for those started before throwing', async () => {
      const slow = gate();
      const started: number[] = [];
      let finished = false;
      const done = runBounded([0, 1, 2, 3], 2, () => true, async (i) => {
        started.push(i);
        if (i === 0) {
          await slow.opened;
          finished = true;
        } else throw new Error(`failed ${i}`);
      });
      await new Promise((r) => setImmediate(r));
      slow.open();
      await expect(done).rejects.toThrow('failed 1');
      expect(finished).toBe(true);
      expect(started).toEqual([0, 1]);

      const stoppedAt: number[] = [];
      await runBounded([0, 1, 2], 1, () => stoppedAt.length < 2, async (i) => void stoppedAt.push(i));
      expect(stoppedAt).toEqual([0, 1]);
    });
  });
});
