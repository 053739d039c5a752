import { closestGap, mergedCentroid, SAME_GAP_COSINE, SWAPPED_WORD_PENALTY, wordingKey, type GapCandidate, type GapQuestion } from './gap-grouping';

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

  it('asks a higher cosine of a question that swaps a word of the gap\'s wording, not of one that adds words or shares none', () => {
    // a unit vector at `cos` from (1, 0, 0)
    const at = (cos: number) => unit(cos, Math.sqrt(1 - cos * cos), 0);
    const gap: GapCandidate = { id: 'gap_powder', centroid: unit(1, 0, 0), wordings: [wordingKey('Do you sell vegan protein powder?')] };
    const ask = (text: string, cos: number) => closestGap({ text, language: 'en', vector: at(cos) }, [gap])?.id ?? null;
    // sell, vegan, protein shared, powder / bars swapped: the line rises by the penalty × 3/5 (Jaccard)
    const swappedLine = SAME_GAP_COSINE + SWAPPED_WORD_PENALTY * (3 / 5);
    expect(ask('do you sell vegan protein bars', swappedLine - 0.02)).toBeNull();
    expect(ask('do you sell vegan protein bars', swappedLine + 0.02)).toBe('gap_powder');
    // words added to the gap's: the line itself
    expect(ask('do u sell vegan protein powder in big tubs', SAME_GAP_COSINE + 0.02)).toBe('gap_powder');
    expect(ask('do u sell vegan protein powder in big tubs', SAME_GAP_COSINE - 0.02)).toBeNull();
    // no word shared: the line itself
    expect(ask('got any plant based shake mix?', SAME_GAP_COSINE + 0.02)).toBe('gap_powder');
  });

  it('groups by words where the model does not read the language only a wording that adds to the gap\'s', () => {
    const gap: GapCandidate = { id: 'gap_es', centroid: null, wordings: [wordingKey('¿Cuánto cuesta alquilar una bici eléctrica?')] };
    const ask = (text: string) => closestGap({ text, language: 'es', vector: null }, [gap])?.id ?? null;
    // "cuánto" hints at a price that "precio" names
    expect(ask('precio para alquilar bici electrica el finde')).toBe('gap_es');
    // "cuánto" shared, "cuesta" and "dura" swapped: another need
    expect(ask('¿cuánto dura el alquiler de la bici eléctrica?')).toBeNull();
    // one word shared, nothing swapped: not enough
    expect(ask('¿alquiláis?')).toBeNull();
    // "bici" shared, "casco" swapped
    expect(ask('¿tenéis casco para la bici?')).toBeNull();
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
