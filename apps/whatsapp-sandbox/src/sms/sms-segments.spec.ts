import { smsSegments } from './sms-segments';

describe('smsSegments', () => {
  it('counts GSM-7 bodies in 160-septet singles and 153-septet parts', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', segments: 2 });
    expect(smsSegments('a'.repeat(306))).toEqual({ encoding: 'GSM-7', segments: 2 });
    // An extension character (€) takes two septets.
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', segments: 1 });
    expect(smsSegments('€'.repeat(81))).toEqual({ encoding: 'GSM-7', segments: 2 });
  });

  it('counts anything outside the GSM alphabet as UCS-2: 70 alone, 67 per part', () => {
    expect(smsSegments('😀'.repeat(35))).toEqual({ encoding: 'UCS-2', segments: 1 });
    expect(smsSegments('ж'.repeat(71))).toEqual({ encoding: 'UCS-2', segments: 2 });
    expect(smsSegments('ж'.repeat(134))).toEqual({ encoding: 'UCS-2', segments: 2 });
  });
});
