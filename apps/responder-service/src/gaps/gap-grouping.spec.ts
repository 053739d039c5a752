import { closestGap, mergedCentroid, wordingKey, type GapCandidate, type GapQuestion } from './gap-grouping';

const unit = (...xs: number[]) => {
  const v = Float32Array.from(xs);
  const norm = Math.hypot(...xs);
  return v.map((x) => x / norm);
};

describe('knowledge gap grouping', () => {
  it('reads two spellings of one wording as one', () => {
    expect(wordingKey('Where can I park?!')).toBe(wordingKey('  where can i PARK '));
    expect(wordingKey('¿Dónde aparco?')).toBe('dónde aparco');
  });

  it('places a question in the open gap whose centroid is closest, if close enough', () => {
    const parking: GapCandidate = { id: 'gap_parking', centroid: unit(1, 0.1, 0), wordings: ['where can i park my car'] };
    const dogs: GapCandidate = { id: 'gap_dogs', centroid: unit(0, 1, 0), wordings: ['can i bring my dog'] };
    const near: GapQuestion = { text: 'Is there parking near you?', language: 'en', vector: unit(1, 0.3, 0.1) };
    const far: GapQuestion = { text: 'Do you sell gift cards?', language: 'en', vector: unit(0.2, 0.2, 1) };
    expect(closestGap(near, [dogs, parking])?.id).toBe('gap_parking');
    expect(closestGap(far, [dogs, parking])).toBeNull();
  });

  it('places the same wording in its gap whatever the vectors say', () => {
    const gap: GapCandidate = { id: 'gap_1', centroid: unit(0, 1, 0), wordings: ['where can i park'] };
    expect(closestGap({ text: 'Where can I park?', language: 'en', vector: unit(1, 0, 0) }, [gap])?.id).toBe('gap_1');
  });

  it('groups by shared words where the model does not read the language', () => {
    const gap: GapCandidate = { id: 'gap_es', centroid: null, wordings: [wordingKey('¿Dónde puedo aparcar el coche?')] };
    expect(closestGap({ text: '¿Se puede aparcar el coche cerca?', language: 'es', vector: null }, [gap])?.id).toBe('gap_es');
    expect(closestGap({ text: '¿Aceptáis perros?', language: 'es', vector: null }, [gap])).toBeNull();
  });

  it('moves the centroid to the normalised mean of its questions', () => {
    const merged = mergedCentroid(unit(1, 0, 0), 1, unit(0, 1, 0))!;
    expect(merged[0]).toBeCloseTo(Math.SQRT1_2, 5);
    expect(merged[1]).toBeCloseTo(Math.SQRT1_2, 5);
    // one question among three weighs a third
    const third = mergedCentroid(unit(1, 0, 0), 2, unit(0, 1, 0))!;
    expect(third[0] / third[1]).toBeCloseTo(2, 5);
    expect(mergedCentroid(null, 0, unit(0, 0, 1))).toEqual(unit(0, 0, 1));
    expect(mergedCentroid(unit(1, 0, 0), 3, null)).toEqual(unit(1, 0, 0));
  });
});
