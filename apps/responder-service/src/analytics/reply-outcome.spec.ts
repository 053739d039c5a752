import { ProblemException } from '@parley/service-kit';
import { dayRange, knowledgeUsed, outcomeOf } from './reply-outcome';

const NOW = new Date('2026-12-06T23:30:00Z');
const fieldOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (err) {
    if (err instanceof ProblemException) return (err.getResponse() as { errors?: { field: string }[] }).errors?.[0]?.field;
    throw err;
  }
  return undefined;
};

describe('reply outcomes', () => {
  it('reads a handoff before a not-known, and an answer only when knowledge was used', () => {
    expect(outcomeOf({ handoff: true, notKnown: true, sources: [] })).toBe('handed_off');
    expect(outcomeOf({ handoff: false, notKnown: true, sources: [] })).toBe('not_known');
    expect(outcomeOf({ handoff: false, sources: [{ type: 'faq', id: 'faq-1', title: 'Open?', excerpt: 'Yes' }] })).toBe('answered');
    expect(outcomeOf({ handoff: false, sources: [] })).toBe('other');
  });

  it('counts a document once however many passages answered, by its id and title', () => {
    expect(
      knowledgeUsed([
        { type: 'document', id: 'doc_A#2', title: 'Price list › Whitening', excerpt: '' },
        { type: 'document', id: 'doc_A#5', title: 'Price list › Cleaning', excerpt: '' },
        { type: 'faq', id: 'faq-3', title: 'Parking?', excerpt: '' },
        { type: 'instruction', id: 'instruction-2', title: 'Instruction', excerpt: '' },
      ]),
    ).toEqual([
      { type: 'document', id: 'doc_A', title: 'Price list' },
      { type: 'faq', id: 'faq-3', title: 'Parking?' },
      { type: 'instruction', id: 'instruction', title: 'Instruction' },
    ]);
  });

  it('defaults to the last 30 days up to today in the zone', () => {
    expect(dayRange({ from: null, to: null, tz: null }, NOW)).toEqual({ from: '2026-11-07', to: '2026-12-06', tz: 'UTC' });
    // already the 7th in Madrid
    expect(dayRange({ from: null, to: null, tz: 'Europe/Madrid' }, NOW)).toEqual({ from: '2026-11-08', to: '2026-12-07', tz: 'Europe/Madrid' });
    expect(dayRange({ from: '2026-12-01', to: '2026-12-01', tz: 'UTC' }, NOW)).toEqual({ from: '2026-12-01', to: '2026-12-01', tz: 'UTC' });
  });

  it('refuses a zone, a date or a range it cannot count, naming the field', () => {
    expect(fieldOf(() => dayRange({ from: null, to: null, tz: 'Mars/Olympus' }, NOW))).toBe('tz');
    expect(fieldOf(() => dayRange({ from: '2026-13-40', to: null, tz: null }, NOW))).toBe('from');
    expect(fieldOf(() => dayRange({ from: '2026-02-30', to: '2026-03-01', tz: null }, NOW))).toBe('from');
    expect(fieldOf(() => dayRange({ from: null, to: 'yesterday', tz: null }, NOW))).toBe('to');
    expect(fieldOf(() => dayRange({ from: '2026-12-05', to: '2026-12-01', tz: null }, NOW))).toBe('from');
    expect(fieldOf(() => dayRange({ from: '2025-01-01', to: '2026-12-01', tz: null }, NOW))).toBe('from');
  });
});
