import { sentences } from '../knowledge/instruction-facts';
import type { TextEmbedder } from './text-embedder';
import { VectorSet } from './vector-set';

/** One piece of an agent's knowledge as the model reads it (a FAQ, a document passage, an instruction fact). */
export interface MeaningPassage {
  id: string;
  type: 'faq' | 'document' | 'instruction';
  /** The FAQ's question, the document's title and headings (`Prices › Whitening`), or `Instruction`. */
  title: string;
  text: string;
  /** Vectors of `passageViews`, computed when the passage was stored (documents); embedded here when absent. */
  vectors?: VectorSet;
}

/** How well one passage matches a question: its best view's cosine, and which view that was. */
export interface DenseMatch {
  id: string;
  cosine: number;
  /** The view that matched best: 0 the passage whole, n ≥ 1 its n-th sentence (passageViews). */
  view: number;
  /** That view's sentence (documents: without the heading it was embedded under). */
  sentence: string;
}

/** Texts embedded per batch: the model's cost grows with the longest text of a batch, so batches stay small. */
const BATCH = 32;

/**
 * What a passage is embedded as: the passage whole, and for a document passage of several sentences each sentence
 * under the passage's headings ("Prices › Kids: Children under 8 climb free."), so that a question about one detail
 * meets the sentence that states it, in the context that says what it is about. A FAQ is its question, and its
 * question with its answer.
 */
export function passageViews(passage: Pick<MeaningPassage, 'type' | 'title' | 'text'>): string[] {
  if (passage.type === 'faq') return [passage.title, `${passage.title} ${passage.text}`];
  if (passage.type === 'instruction') return [passage.text];
  const parts = sentences(passage.text);
  const whole = `${passage.title}: ${passage.text}`;
  return parts.length > 1 ? [whole, ...parts.map((s) => `${passage.title}: ${s}`)] : [whole];
}

/** The sentence a view stands for (what a reply quotes). */
function viewSentence(passage: MeaningPassage, view: number): string {
  if (view === 0 || passage.type !== 'document') return passage.text;
  return sentences(passage.text)[view - 1] ?? passage.text;
}

/** Embeds the views of the passages that have no vectors yet, in order; one VectorSet per passage. */
export async function embedPassages(passages: readonly Pick<MeaningPassage, 'type' | 'title' | 'text'>[], embedder: TextEmbedder): Promise<VectorSet[]> {
  const views = passages.map(passageViews);
  const texts = views.flat();
  const vectors: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += BATCH) vectors.push(...(await embedder.embed(texts.slice(i, i + BATCH))));
  const sets: VectorSet[] = [];
  let next = 0;
  for (const v of views) {
    sets.push(VectorSet.of(vectors.slice(next, next + v.length)));
    next += v.length;
  }
  return sets;
}

/** An agent's knowledge in the model's space: every view of every passage, ranked by cosine against a question. */
export class SemanticIndex {
  private constructor(
    private readonly passages: readonly MeaningPassage[],
    /** Per passage, where its views start in `vectors`, and how many it has. */
    private readonly spans: readonly { first: number; count: number }[],
    private readonly vectors: VectorSet,
  ) {}

  /** Builds the index: stored vectors are used as they are, the rest embedded (FAQs and instruction facts: a few). */
  static async build(passages: readonly MeaningPassage[], embedder: TextEmbedder): Promise<SemanticIndex> {
    const usable = (p: MeaningPassage) => p.vectors !== undefined && p.vectors.size === passageViews(p).length;
    const missing = passages.filter((p) => !usable(p));
    const embedded = await embedPassages(missing, embedder);
    const sets = passages.map((p) => (usable(p) ? p.vectors! : embedded[missing.indexOf(p)]));
    const spans: { first: number; count: number }[] = [];
    let first = 0;
    for (const set of sets) {
      spans.push({ first, count: set.size });
      first += set.size;
    }
    const dimensions = sets.find((s) => s.size > 0)?.dimensions ?? 0;
    return new SemanticIndex(passages, spans, VectorSet.concat(sets, dimensions));
  }

  /** Vectors held: what the cache of indexes is bounded by. */
  get size(): number {
    return this.vectors.size;
  }

  /** Every passage's best view for the question's vector, best first. */
  rank(query: Float32Array): DenseMatch[] {
    const matches: DenseMatch[] = this.passages.map((p, i) => {
      const { first, count } = this.spans[i];
      let best = -1;
      let view = 0;
      for (let v = 0; v < count; v++) {
        const cosine = this.vectors.cosine(first + v, query);
        if (cosine > best) {
          best = cosine;
          view = v;
        }
      }
      return { id: p.id, cosine: best, view, sentence: viewSentence(p, view) };
    });
    return matches.sort((a, b) => b.cosine - a.cosine);
  }
}
