import type { TextEmbedder } from './text-embedder';

const OTHER_WORDS = 64;
/** Words that mean nothing here (the real model weighs them little). */
const GRAMMAR = new Set('a an the is are do does you your i my me we on in at of to for and or with where which what how much when can there this that it be has have will'.split(' '));
const hash = (word: string) => [...word].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

/**
 * A stand-in for the model in unit specs: each text is the unit vector of the groups its words belong to, so that
 * words of one group ("car", "garage", "parking") mean the same; a word of no group is a meaning of its own (one of
 * 64 more dimensions, by its hash), so texts sharing nothing are orthogonal. Deterministic; records its calls. The real
 * model is tested in sentence-embedder.spec.ts and through `npm run eval`.
 */
export class FakeEmbedder implements TextEmbedder {
  readonly calls: string[][] = [];
  private readonly groupOf = new Map<string, number>();

  constructor(groups: readonly (readonly string[])[]) {
    groups.forEach((words, i) => words.forEach((w) => this.groupOf.set(w, i)));
    this.dimensions = groups.length + OTHER_WORDS;
  }

  readonly dimensions: number;

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    return Promise.resolve(texts.map((t) => this.vector(t)));
  }

  private vector(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w && !GRAMMAR.has(w))) {
      v[this.groupOf.get(word) ?? this.dimensions - OTHER_WORDS + (hash(word) % OTHER_WORDS)] += 1;
    }
    if (v.every((x) => x === 0)) v[this.dimensions - 1] = 1;
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  }
}
