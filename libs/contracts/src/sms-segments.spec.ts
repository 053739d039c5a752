import { smsSegments } from './sms-segments';

describe('smsSegments', () => {
  it.each([
    [0, 1],
    [160, 1],
    [161, 2],
    [200, 2],
    [306, 2],
    [307, 3],
  ])('GSM-7 text of %i characters: %i segment(s)', (length, segments) => {
    expect(smsSegments('a'.repeat(length))).toEqual({ encoding: 'GSM-7', segments, units: length });
  });

  it('reads the whole GSM 03.38 alphabet as GSM-7, accents included', () => {
    expect(smsSegments('Ça coûte 5€? Très bien: {ok} [à 12h] ~ ^ | \\ @£$¥ ΔΦΓ').encoding).toBe('UCS-2'); // û is not GSM-7
    expect(smsSegments('Ça coute 5€? Très bien: {ok} [à 12h] ~ ^ | \\ @£$¥ ΔΦΓ').encoding).toBe('GSM-7');
  });

  it('counts extension characters as two septets', () => {
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(smsSegments('€'.repeat(81))).toEqual({ encoding: 'GSM-7', segments: 2, units: 162 });
  });

  it('never splits an escape pair across parts', () => {
    // 152 septets then a two-septet €: the first part (153) cannot hold it whole, so it starts the second.
    expect(smsSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toEqual({ encoding: 'GSM-7', segments: 3, units: 306 });
  });

  it('makes the whole text UCS-2 for one character outside GSM-7', () => {
    expect(smsSegments(`${'a'.repeat(69)}ő`)).toEqual({ encoding: 'UCS-2', segments: 1, units: 70 });
    expect(smsSegments(`${'a'.repeat(70)}ő`)).toEqual({ encoding: 'UCS-2', segments: 2, units: 71 });
    expect(smsSegments('a'.repeat(134) + 'ő')).toEqual({ encoding: 'UCS-2', segments: 3, units: 135 });
  });

  it('counts an emoji as two UTF-16 units and keeps it whole', () => {
    expect(smsSegments(`${'a'.repeat(69)}😀`)).toEqual({ encoding: 'UCS-2', segments: 2, units: 71 });
    // 66 units then an emoji: the first part (67) cannot hold both halves.
    expect(smsSegments(`${'a'.repeat(66)}😀${'a'.repeat(66)}`)).toEqual({ encoding: 'UCS-2', segments: 3, units: 134 });
  });
});
