import { FakeEmbedder } from './fake-embedder';
import { SemanticIndex, embedPassages, passageViews, type MeaningPassage } from './semantic-index';

const GROUPS = [['car', 'garage', 'parking', 'park'], ['child', 'children', 'kid', 'kids'], ['price', 'costs', 'cost']];

describe('SemanticIndex: an agent’s knowledge in the model’s space', () => {
  const parking: MeaningPassage = { id: 'doc#0', type: 'document', title: 'Visiting › Parking', text: 'Street parking is metered. The garage is free.' };
  const kids: MeaningPassage = { id: 'doc#1', type: 'document', title: 'Visiting › Kids', text: 'Children under 8 climb free.' };
  const faq: MeaningPassage = { id: 'faq-1', type: 'faq', title: 'How much is a class?', text: 'A class costs $22.' };

  it('embeds a document passage whole and sentence by sentence under its headings, a FAQ as its question and with its answer', () => {
    expect(passageViews(parking)).toEqual([
      'Visiting › Parking: Street parking is metered. The garage is free.',
      'Visiting › Parking: Street parking is metered.',
      'Visiting › Parking: The garage is free.',
    ]);
    expect(passageViews(kids)).toEqual(['Visiting › Kids: Children under 8 climb free.']);
    expect(passageViews(faq)).toEqual(['How much is a class?', 'How much is a class? A class costs $22.']);
  });

  it('ranks passages by their best view, and says which sentence it was', async () => {
    const embedder = new FakeEmbedder(GROUPS);
    const mixed: MeaningPassage = { id: 'doc#2', type: 'document', title: 'Visiting › Good to know', text: 'Kids climb free. The garage is free.' };
    const index = await SemanticIndex.build([mixed, faq], embedder);
    const [query] = await embedder.embed(['where do i leave my car']);
    const [best, next] = index.rank(query);
    // the passage whole is half about children: its garage sentence is what matches
    expect(best).toMatchObject({ id: 'doc#2', view: 2, sentence: 'The garage is free.' });
    expect(next).toMatchObject({ id: 'faq-1' });
    expect(best.cosine).toBeGreaterThan(0.3);
    expect(next.cosine).toBeCloseTo(0, 2);
  });

  it('uses vectors stored with a passage instead of embedding it again', async () => {
    const embedder = new FakeEmbedder(GROUPS);
    const [stored] = await embedPassages([parking], embedder);
    embedder.calls.length = 0;
    await SemanticIndex.build([{ ...parking, vectors: stored }, kids], embedder);
    expect(embedder.calls.flat()).toEqual(passageViews(kids));
  });
});
