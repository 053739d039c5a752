import { chunkDocument } from '../evaluation/eval-fixtures';
import { FakeEmbedder } from '../semantics/fake-embedder';
import { matchKnowledge, passagesByMeaning, type Meaning } from './knowledge-match';
import type { KnowledgeSet } from './rank-knowledge';

// The model's part is a stand-in (semantics/fake-embedder.ts): "car" means "garage", "kid" means "children".
const meaning = (): Meaning => ({
  embedder: new FakeEmbedder([
    ['car', 'garage', 'parking', 'park'],
    ['kid', 'kids', 'child', 'children', 'daughter'],
    ['class', 'classes', 'pass', 'drop'],
  ]),
  languages: ['en'],
  model: 'fake',
});

const knowledge: KnowledgeSet = {
  instruction: 'You answer for Summit Gym.',
  faqs: [{ question: 'Which insurance do you accept?', answer: 'We accept Aetna and Cigna.' }],
  documents: chunkDocument(
    'doc_1',
    'Visiting',
    '# Visiting\n\n## Parking\nThe garage on Oak Street is free for members.\n\n## Prices\nA drop-in class costs $22. A ten-class pass costs $180.\n\n## Kids\nChildren under 8 climb free.',
  ),
};

describe('matchKnowledge: by words, else by meaning, never a passage merely about the topic', () => {
  it('answers by words when a passage covers the question, with its confidence', async () => {
    const match = await matchKnowledge('how much is a drop-in class?', knowledge, 'en', meaning());
    expect(match).toMatchObject({ via: 'words', excerpt: expect.stringContaining('A drop-in class costs $22.') });
    expect(match!.confidence).toBeGreaterThan(0.8);
    expect(match!.passages[0].score).toBe(match!.confidence);
  });

  it('answers by meaning a question in other words, with the sentence that answers it', async () => {
    expect(await matchKnowledge('where do i leave my car?', knowledge, 'en', null)).toBeNull();
    const match = await matchKnowledge('where do i leave my car?', knowledge, 'en', meaning());
    expect(match).toMatchObject({ via: 'meaning', excerpt: 'The garage on Oak Street is free for members.' });
    expect(match!.confidence).toBeGreaterThanOrEqual(0.5);
    expect(match!.confidence).toBeLessThanOrEqual(1);
  });

  it('does not answer by meaning a question naming something the passage lacks ("sauna" beside the classes)', async () => {
    expect(await matchKnowledge('do you have a sauna class?', knowledge, 'en', meaning())).toBeNull();
  });

  it('does not answer by words a question whose required topic the passage lacks (a price asked of the parking)', async () => {
    const match = await matchKnowledge('how much is parking in the garage on oak street?', knowledge, 'en', meaning());
    expect(match).toBeNull();
  });

  it('does not answer by words a question with a word the knowledge never uses, unless it covers nearly all of it', async () => {
    expect(await matchKnowledge('do you accept medicaid insurance?', knowledge, 'en', null)).toBeNull();
    expect(await matchKnowledge('which insurance do you accept?', knowledge, 'en', null)).toMatchObject({ via: 'words' });
  });

  it('reads a question that names no topic of its own ("how much?") with the sentence before it', async () => {
    expect(await matchKnowledge('do you have a sauna? how much?', knowledge, 'en', null)).toBeNull();
    const match = await matchKnowledge('i would like a drop-in class. how much?', knowledge, 'en', null);
    expect(match).toMatchObject({ via: 'words', excerpt: expect.stringContaining('A drop-in class costs $22.') });
  });

  it('reads by meaning only the languages the model reads', async () => {
    expect(await passagesByMeaning('where do i leave my car?', knowledge, 'es', meaning(), 3)).toEqual([]);
    const [nearest] = await passagesByMeaning('where do i leave my car?', knowledge, 'en', meaning(), 3);
    expect(nearest).toMatchObject({ type: 'document', title: 'Visiting › Parking' });
  });
});
