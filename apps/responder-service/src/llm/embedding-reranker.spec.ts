import { FakeLlmServer } from '@parley/testing';
import { EmbeddingReranker } from './embedding-reranker';
import type { AgentKnowledge, RankedPassage } from './knowledge-passage';
import { KnowledgeRetriever } from './knowledge-retriever';
import { LlmClient, type CallBudget } from './openai.client';

const KNOWLEDGE: AgentKnowledge = { faqs: [], documents: [], instruction: '' };
const QUERY = 'is cigna insurance accepted';
// Lexically the parking passage leads; by meaning (shared words, in the stand-in's embeddings) the insurance one does.
const PARKING: RankedPassage = { type: 'instruction', id: 'instruction-1', title: 'Instruction', text: 'Parking is free behind the building.', score: 0.6 };
const INSURANCE: RankedPassage = { type: 'faq', id: 'faq-1', title: 'Insurance', text: 'Cigna insurance is accepted here.', score: 0.5 };
const rank = () => [PARKING, INSURANCE];
const budget = (): CallBudget => ({ signal: AbortSignal.timeout(5000), deadline: Date.now() + 5000 });

/** Embeddings from the LLM server, against the stand-in over real HTTP. */
describe('knowledge retrieval for the LLM', () => {
  let withEmbeddings: FakeLlmServer;
  let without: FakeLlmServer;

  beforeAll(async () => {
    [withEmbeddings, without] = await Promise.all([FakeLlmServer.start(), FakeLlmServer.start({ embeddings: false })]);
  });
  afterAll(() => Promise.all([withEmbeddings.close(), without.close()]));

  it('reorders the lexical candidates by meaning when the server has embeddings, probing once and caching passage vectors', async () => {
    const client = new LlmClient({ baseUrl: withEmbeddings.baseUrl, apiKey: '', maxRetries: 0 });
    const retriever = new KnowledgeRetriever(rank, new EmbeddingReranker(client, 'fake-embed'));
    expect((await retriever.retrieve(QUERY, KNOWLEDGE, 'en', budget())).map((p) => p.id)).toEqual(['faq-1', 'instruction-1']);
    expect(withEmbeddings.embeddingRequests).toEqual([['probe'], [QUERY], ['Instruction\nParking is free behind the building.', 'Insurance\nCigna insurance is accepted here.']]);

    withEmbeddings.embeddingRequests.length = 0;
    await retriever.retrieve(QUERY, KNOWLEDGE, 'en', budget());
    expect(withEmbeddings.embeddingRequests).toEqual([[QUERY]]); // no second probe, passages cached

    withEmbeddings.embeddingRequests.length = 0;
    const edited = { ...PARKING, text: 'Parking is free, and Cigna insurance is accepted.' };
    await new KnowledgeRetriever(() => [edited, INSURANCE], new EmbeddingReranker(client, 'fake-embed')).retrieve(QUERY, KNOWLEDGE, 'en', budget());
    expect(withEmbeddings.embeddingRequests.slice(-1)).toEqual([['Instruction\nParking is free, and Cigna insurance is accepted.', 'Insurance\nCigna insurance is accepted here.']]);
  });

  it('stays lexical for good when the server has no embeddings (probed once)', async () => {
    const client = new LlmClient({ baseUrl: without.baseUrl, apiKey: '', maxRetries: 0 });
    const embed = jest.spyOn(client, 'embed');
    const retriever = new KnowledgeRetriever(rank, new EmbeddingReranker(client, 'fake-embed'));
    expect((await retriever.retrieve(QUERY, KNOWLEDGE, 'en', budget())).map((p) => p.id)).toEqual(['instruction-1', 'faq-1']);
    expect((await retriever.retrieve(QUERY, KNOWLEDGE, 'en', budget())).map((p) => p.id)).toEqual(['instruction-1', 'faq-1']);
    expect(embed).toHaveBeenCalledTimes(1);
  });

  it('leaves out candidates covering less than a fifth of the query', async () => {
    const weak = { ...INSURANCE, score: 0.1 };
    expect(await new KnowledgeRetriever(() => [PARKING, weak], null).retrieve(QUERY, KNOWLEDGE, 'en', budget())).toEqual([PARKING]);
  });
});
