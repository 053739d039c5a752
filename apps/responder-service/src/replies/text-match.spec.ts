import { bestFaq, keywords } from './text-match';

describe('keywords', () => {
  it('drops stopwords, case, accents and punctuation, and meets plural and -ing forms', () => {
    expect([...keywords('What are your Opening HOURS?')]).toEqual(['open', 'hour']);
    expect([...keywords('Café prices!')]).toEqual(['cafe', 'price']);
  });
});

describe('bestFaq', () => {
  const faqs = [
    { question: 'What are your opening hours?', answer: 'hours' },
    { question: 'How much does a wedding cake cost?', answer: 'price' },
  ];

  it('needs at least half of a question covered', () => {
    expect(bestFaq(faqs, 'wedding')).toBeNull(); // 1 of 3 keywords
    expect(bestFaq(faqs, 'wedding cake please')?.answer).toBe('price');
    expect(bestFaq(faqs, 'hello')).toBeNull();
  });

  it('prefers the better-covered question', () => {
    expect(bestFaq(faqs, 'opening hours for the wedding cake')?.answer).toBe('hours');
  });
});
