import { VectorSet } from './vector-set';

const unit = (values: number[]) => {
  const v = Float32Array.from(values);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

describe('VectorSet: unit vectors in one byte per component', () => {
  const a = unit([0.3, -0.5, 0.8, 0.1]);
  const b = unit([0.9, 0.1, -0.2, 0.4]);

  it('keeps cosines within 0.01 of the float ones', () => {
    const set = VectorSet.of([a, b]);
    const exact = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0);
    expect(set.cosine(0, a)).toBeCloseTo(1, 2);
    expect(set.cosine(1, a)).toBeCloseTo(exact(b, a), 2);
    expect(set.cosine(0, b)).toBeCloseTo(exact(a, b), 2);
  });

  it('survives the database round trip, and slices and concatenates without moving a vector', () => {
    const set = VectorSet.of([a, b]);
    const back = VectorSet.fromBuffer(set.toBuffer());
    expect(back.size).toBe(2);
    expect(back.dimensions).toBe(4);
    expect(back.cosine(1, b)).toBe(set.cosine(1, b));
    const joined = VectorSet.concat([set.slice(1, 2), set.slice(0, 1)], 4);
    expect(joined.cosine(0, b)).toBe(set.cosine(1, b));
    expect(joined.cosine(1, a)).toBe(set.cosine(0, a));
  });
});
