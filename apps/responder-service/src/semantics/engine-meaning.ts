import type { Meaning } from '../knowledge/knowledge-match';
import { MODEL_NAME, sharedEmbedder } from './sentence-embedder';

/** The languages the in-process model reads: all-MiniLM-L6-v2 is English (its vocabulary is English word pieces). */
export const MODEL_LANGUAGES = ['en'] as const;

/** The deterministic engine's sense of meaning: the process's one in-process model. */
export async function engineMeaning(): Promise<Meaning> {
  return { embedder: await sharedEmbedder(), languages: MODEL_LANGUAGES, model: MODEL_NAME };
}
