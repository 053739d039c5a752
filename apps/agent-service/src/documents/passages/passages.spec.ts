import { PASSAGE_MAX_WORDS, PASSAGE_MIN_WORDS, htmlPassages, markdownPassages } from './passages';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const sentence = (i: number) => `Sentence number ${i} tells the reader one more useful fact about the clinic.`;

describe('document passages', () => {
  it('keeps the heading path of every passage and starts a new passage at each heading', () => {
    const passages = markdownPassages('# Prices\n\nIntro.\n\n## Whitening\n\nWhitening costs **$300**.\n\n- one session\n- one hour\n\n# Hours\n\nWe open at 9.');
    expect(passages).toEqual([
      { headings: ['Prices'], text: 'Intro.' },
      { headings: ['Prices', 'Whitening'], text: 'Whitening costs $300.\n- one session\n- one hour' },
      { headings: ['Hours'], text: 'We open at 9.' },
    ]);
  });

  it(`groups paragraphs of one section into passages of ${PASSAGE_MIN_WORDS}–${PASSAGE_MAX_WORDS} words, cutting a long paragraph at sentence ends`, () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `${sentence(3 * i)} ${sentence(3 * i + 1)} ${sentence(3 * i + 2)}`);
    const long = Array.from({ length: 60 }, (_, i) => sentence(1000 + i)).join(' ');
    const passages = markdownPassages(`# Guide\n\n${paragraphs.join('\n\n')}\n\n${long}`);
    expect(passages.length).toBeGreaterThan(3);
    for (const p of passages) {
      expect(p.headings).toEqual(['Guide']);
      expect(words(p.text)).toBeLessThanOrEqual(PASSAGE_MAX_WORDS);
    }
    // Every passage but the section's last reaches the minimum; every sentence survives whole.
    for (const p of passages.slice(0, -1)) expect(words(p.text)).toBeGreaterThanOrEqual(PASSAGE_MIN_WORDS);
    const all = passages.map((p) => p.text).join(' ');
    for (let i = 0; i < 60; i++) expect(all).toContain(sentence(1000 + i));
  });

  it('reads HTML by its structure: headings kept, scripts, styles and navigation dropped, entities decoded', () => {
    const html = '<html><head><style>p{color:red}</style><script>track()</script></head><body><nav>Home | Blog</nav><h2>Insurance</h2><h3>Plans</h3><p>We take Cigna &amp; Aetna.</p></body></html>';
    expect(htmlPassages(html)).toEqual([{ headings: ['Insurance', 'Plans'], text: 'We take Cigna & Aetna.' }]);
  });
});
