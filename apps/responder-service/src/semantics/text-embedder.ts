/**
 * What the engine's sense of meaning needs of a sentence-embedding model: one unit-length vector per text, so that the
 * cosine of two texts is the dot product of their vectors. SentenceEmbedder (the in-process model) is the real one;
 * specs may give a fake.
 */
export interface TextEmbedder {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** The cosine of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
