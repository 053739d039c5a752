/**
 * Unit vectors stored as one byte per component with a scale per vector (int8 quantisation): a quarter of the memory
 * and storage of float32, for cosines within about 0.01 of the exact ones, which no threshold here is that close to.
 * Agents' knowledge vectors live in this form in memory and in the database.
 */
export class VectorSet {
  private constructor(
    readonly dimensions: number,
    private readonly values: Int8Array,
    private readonly scales: Float32Array,
  ) {}

  static of(vectors: readonly Float32Array[], dimensions = vectors[0]?.length ?? 0): VectorSet {
    const values = new Int8Array(vectors.length * dimensions);
    const scales = new Float32Array(vectors.length);
    vectors.forEach((v, n) => {
      let max = 0;
      for (let i = 0; i < dimensions; i++) max = Math.max(max, Math.abs(v[i]));
      const scale = max === 0 ? 1 : max / 127;
      scales[n] = scale;
      for (let i = 0; i < dimensions; i++) values[n * dimensions + i] = Math.round(v[i] / scale);
    });
    return new VectorSet(dimensions, values, scales);
  }

  /** A set stored by `toBuffer`. */
  static fromBuffer(buffer: Uint8Array): VectorSet {
    const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    const count = view.getUint32(0, true);
    const dimensions = view.getUint32(4, true);
    const scales = new Float32Array(count);
    for (let n = 0; n < count; n++) scales[n] = view.getFloat32(8 + 4 * n, true);
    const start = 8 + 4 * count;
    const values = new Int8Array(buffer.buffer.slice(buffer.byteOffset + start, buffer.byteOffset + start + count * dimensions));
    return new VectorSet(dimensions, values, scales);
  }

  get size(): number {
    return this.scales.length;
  }

  /** count, dimensions (uint32 LE), the scales (float32 LE), then the values. */
  toBuffer(): Buffer {
    const head = Buffer.alloc(8 + 4 * this.size);
    head.writeUInt32LE(this.size, 0);
    head.writeUInt32LE(this.dimensions, 4);
    this.scales.forEach((s, n) => head.writeFloatLE(s, 8 + 4 * n));
    return Buffer.concat([head, Buffer.from(this.values.buffer, this.values.byteOffset, this.values.byteLength)]);
  }

  /** The cosine of vector `n` and a unit vector. */
  cosine(n: number, query: Float32Array): number {
    const offset = n * this.dimensions;
    let sum = 0;
    for (let i = 0; i < this.dimensions; i++) sum += this.values[offset + i] * query[i];
    return sum * this.scales[n];
  }

  /** The vectors from..to (exclusive) as a set of their own. */
  slice(from: number, to: number): VectorSet {
    return new VectorSet(this.dimensions, this.values.slice(from * this.dimensions, to * this.dimensions), this.scales.slice(from, to));
  }

  /** One set of these, in order. */
  static concat(sets: readonly VectorSet[], dimensions: number): VectorSet {
    const values = new Int8Array(sets.reduce((n, s) => n + s.values.length, 0));
    const scales = new Float32Array(sets.reduce((n, s) => n + s.size, 0));
    let v = 0;
    let s = 0;
    for (const set of sets) {
      values.set(set.values, v);
      scales.set(set.scales, s);
      v += set.values.length;
      s += set.size;
    }
    return new VectorSet(dimensions, values, scales);
  }
}
