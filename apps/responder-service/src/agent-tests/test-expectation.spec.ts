import { comparedWithPrevious, unmetExpectations, type TestedReply } from './test-expectation';

const answer: TestedReply = { text: 'Parking is free behind the Café, entrance on Oak Street.', skill: 'faq_responder', handoff: false, notKnown: false };
const dontKnow: TestedReply = { text: "I'm sorry, I don't know the answer to that.", skill: 'faq_responder', handoff: false, notKnown: true };

describe('unmetExpectations', () => {
  it('passes a reply meeting every key, the text matched whatever its case and accents', () => {
    expect(unmetExpectations({ contains: 'cafe', skill: 'faq_responder', handoff: false, no_answer: false }, answer)).toEqual([]);
  });

  it('names each key the reply misses', () => {
    expect(unmetExpectations({ contains: 'Elm Street', skill: 'appointment_booking', handoff: true, no_answer: true }, answer)).toEqual([
      'does not contain "Elm Street"',
      'answered by faq_responder (expected: appointment_booking)',
      'does not hand off to a person',
      'answers (expected: says it does not know)',
    ]);
  });

  it('tells "does not know" from an answer both ways', () => {
    expect(unmetExpectations({ no_answer: true }, dontKnow)).toEqual([]);
    expect(unmetExpectations({ no_answer: false }, dontKnow)).toEqual(['says it does not know']);
  });
});

describe('comparedWithPrevious', () => {
  it('lists the cases this version fixed and broke; new cases are neither', () => {
    const before = [{ test_id: 'a', ok: false }, { test_id: 'b', ok: true }, { test_id: 'c', ok: true }];
    const now = [{ test_id: 'a', ok: true }, { test_id: 'b', ok: false }, { test_id: 'c', ok: true }, { test_id: 'd', ok: false }];
    expect(comparedWithPrevious(now, before)).toEqual({ fixed: ['a'], broken: ['b'] });
  });

  it('compares with nothing for a first version', () => {
    expect(comparedWithPrevious([{ test_id: 'a', ok: true }], null)).toEqual({ fixed: [], broken: [] });
  });
});
