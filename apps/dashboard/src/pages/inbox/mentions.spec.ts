import { describe, expect, it } from 'vitest';
import { mentionsToIds, mentionsToNames } from './mentions';

const KARI = { id: 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9K', name: 'Kari Nordmann' };
const KARIN = { id: 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9M', name: 'Kari' };

describe('note mentions', () => {
  it('turns "@Name" into the member id, the longest name first and case ignored, and leaves other @words', () => {
    expect(mentionsToIds('@kari nordmann can you call? cc @Kari, and @nobody', [KARIN, KARI])).toBe(`@${KARI.id} can you call? cc @${KARIN.id}, and @nobody`);
    expect(mentionsToIds('@Karina hi', [KARIN])).toBe('@Karina hi');
  });

  it('shows ids as names, "you" for the reader, and an unknown id as it is', () => {
    const unknown = '@usr_01JD8Z9D1B2C3D4E5F6G7H8J9Z';
    expect(mentionsToNames(`@${KARI.id} and @${KARIN.id} ${unknown}`, [KARI, KARIN], KARIN.id)).toBe(`@Kari Nordmann and @you ${unknown}`);
  });
});
