import { readCitations } from './citations';

const GIVEN = new Set(['faq-1', 'faq-2', 'doc_01J9#3', 'instruction-2']);

describe('readCitations', () => {
  it('takes the given ids out of the answer, in order of first citation', () => {
    expect(readCitations('We open at 9 [faq-1]. Whitening costs 200 EUR [doc_01J9#3, faq-1].', GIVEN)).toEqual({
      text: 'We open at 9. Whitening costs 200 EUR.',
      cited: ['faq-1', 'doc_01J9#3'],
      unknown: [],
    });
  });

  it('reports ids that were never given', () => {
    expect(readCitations('Parking is free [faq-9].', GIVEN)).toEqual({ text: 'Parking is free.', cited: [], unknown: ['faq-9'] });
    expect(readCitations('Yes [faq-2][doc_77#1]', GIVEN)).toMatchObject({ cited: ['faq-2'], unknown: ['doc_77#1'] });
  });

  it('leaves prose in brackets and Markdown links alone', () => {
    expect(readCitations('Booked for [2026-11-26T14:00], arrive by [13:50].', GIVEN)).toEqual({ text: 'Booked for [2026-11-26T14:00], arrive by [13:50].', cited: [], unknown: [] });
    expect(readCitations('It is [sic] fine, see [the list](https://x.example) [instruction-2]', GIVEN)).toEqual({
      text: 'It is [sic] fine, see [the list](https://x.example)',
      cited: ['instruction-2'],
      unknown: [],
    });
    expect(readCitations('Hello! How can I help?', GIVEN)).toEqual({ text: 'Hello! How can I help?', cited: [], unknown: [] });
  });
});
