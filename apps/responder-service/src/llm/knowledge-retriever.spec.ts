import { FakeEmbedder } from '../semantics/fake-embedder';
import type { CallBudget } from './openai.client';
import type { AgentKnowledge, RankedPassage } from './knowledge-passage';
import { KnowledgeRetriever, fuse } from './knowledge-retriever';

const passage = (id: string, score: number): RankedPassage => ({ type: 'faq', id, title: id, text: id, score });

describe('KnowledgeRetriever: the LLM’s candidates by words and by meaning', () => {
  it('fuses two rankings by reciprocal rank: in both beats first in one', () => {
    const fused = fuse([passage('a', 0.9), passage('b', 0.5)], [passage('c', 0.8), passage('b', 0.6)]);
    expect(fused.map((p) => p.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0].score).toBe(0.5); // a passage keeps its lexical score
  });

  it('brings the in-process model’s nearest passages in where the words find nothing, with no LLM embeddings', async () => {
    const knowledge: AgentKnowledge = {
      instruction: 'You answer for a gym.',
      faqs: [{ question: 'Is there a garage?', answer: 'The garage on Oak Street is free for members.' }],
      documents: [],
    };
    const meaning = { embedder: new FakeEmbedder([['car', 'garage', 'parking']]), languages: ['en'] as const, model: 'fake' };
    const budget = {} as CallBudget;
    expect(await new KnowledgeRetriever(() => [], null).retrieve('where do i leave my car', knowledge, 'en', budget)).toEqual([]);
    const found = await new KnowledgeRetriever(() => [], null, meaning).retrieve('where do i leave my car', knowledge, 'en', budget);
    expect(found.map((p) => p.id)).toEqual(['faq-1']);
  });
});
