import { OffsetWatermark, groupByKey } from './batch-groups';

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
});
