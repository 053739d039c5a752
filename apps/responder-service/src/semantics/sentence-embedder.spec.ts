import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SentenceEmbedder, cosine, defaultModelDir, sharedEmbedder } from './sentence-embedder';

// The real model, from the folder `npm test` fetches it into first (`npm run models:fetch` alone): a local file, so
// this stays a unit test. Loading takes about a second.
describe('SentenceEmbedder', () => {
  let embedder: SentenceEmbedder;
  beforeAll(async () => {
    embedder = await SentenceEmbedder.load();
  }, 30_000);
  afterAll(() => embedder?.release());

  const norm = (v: Float32Array) => Math.sqrt(cosine(v, v));

  it('gives one unit-length 384-dimensional vector per text, in order', async () => {
    expect(embedder.dimensions).toBe(384);
    const texts = ['Do you open on Sundays?', 'We are open every day from 9 to 5.', '', 'x'.repeat(50_000)];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(384);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(await embedder.embed([])).toEqual([]);
  });

  it('puts the same text at cosine 1, and a question nearer the passage that answers it', async () => {
    const [question, parking, prices] = await embedder.embed(['where can I leave my car?', 'Parking: the garage on Oak Street is free', 'A drop-in class costs $22']);
    const [again] = await embedder.embed(['where can I leave my car?']);
    expect(cosine(question, again)).toBeCloseTo(1, 5);
    expect(cosine(question, parking)).toBeGreaterThan(cosine(question, prices) + 0.1);
  });

  it("gives a text the same vector whatever else the call embeds (one text per run), and close to it in batches", async () => {
    const kids = 'Can I bring my kids?';
    const club = 'Children from 4 years climb with a parent; the kids club on Saturdays has instructors and all the gear you need.';
    const fresh = await SentenceEmbedder.load({ cacheSize: 0 });
    const batched = await SentenceEmbedder.load({ cacheSize: 0, batchSize: 32 });
    try {
      const [alone] = await fresh.embed([kids]);
      const [, withOthers] = await fresh.embed([club, kids]);
      expect(withOthers).toEqual(alone);
      expect(withOthers).not.toBe(alone);
      // in a batch, padded to the longer text: the padding is masked out of the mean, but the int8 model quantizes
      // its activations over the whole batch, so the vector moves a little
      const [, inBatch] = await batched.embed([club, kids]);
      expect(cosine(alone, inBatch)).toBeGreaterThan(0.98);
      expect(norm(inBatch)).toBeCloseTo(1, 5);
    } finally {
      await fresh.release();
      await batched.release();
    }
  });

  it('answers a text it has seen from its cache: the same vector', async () => {
    const [first] = await embedder.embed(['Is there parking nearby?']);
    expect(embedder.cached('Is there parking nearby?')).toBe(first);
    const [second, other] = await embedder.embed(['Is there parking nearby?', 'How much is a day pass?']);
    expect(second).toBe(first);
    expect(other).not.toBe(first);
  });

  it('forgets the least recently used text beyond its cache size', async () => {
    const small = await SentenceEmbedder.load({ cacheSize: 2 });
    try {
      await small.embed(['one', 'two']);
      small.cached('one'); // now the most recently used
      await small.embed(['three']);
      expect(small.cached('two')).toBeUndefined();
      expect(small.cached('one')).toBeDefined();
      expect(small.cached('three')).toBeDefined();
    } finally {
      await small.release();
    }
  });

  it('says how to fetch the model when its folder is empty', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'parley-models-'));
    try {
      await expect(SentenceEmbedder.load(empty)).rejects.toThrow(`the embedding model is not at ${empty}: run \`npm run models:fetch\``);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('finds the model folder under the repository, or under PARLEY_MODELS_DIR', () => {
    expect(defaultModelDir({})).toBe(join(__dirname, '../../../..', '.models', 'all-minilm-l6-v2-q'));
    expect(defaultModelDir({ PARLEY_MODELS_DIR: '/srv/models' })).toBe('/srv/models/all-minilm-l6-v2-q');
  });

  it('loads the shared embedder once per process', async () => {
    const [a, b] = await Promise.all([sharedEmbedder(), sharedEmbedder()]);
    expect(a).toBe(b);
    expect(await sharedEmbedder()).toBe(a);
    await a.release();
  });
});
