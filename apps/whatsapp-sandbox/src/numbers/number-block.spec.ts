import { isE164 } from '@parley/contracts';
import { NUMBER_BLOCK_SIZE, blockNumber, blockSlot } from './number-block';

describe('sandbox number block', () => {
  it('holds 5,000 numbers, every one a valid E.164 number on the fictional 555-01xx lines', () => {
    expect(NUMBER_BLOCK_SIZE).toBe(5000);
    for (let slot = 0; slot < NUMBER_BLOCK_SIZE; slot++) {
      const number = blockNumber(slot);
      expect(number).toMatch(/^\+1\d{3}5550(1\d\d)$/);
      if (!isE164(number)) throw new Error(`${number} (slot ${slot}) is not a valid E.164 number`);
      expect(blockSlot(number)).toBe(slot);
    }
  });

  it('starts at +1 201 555 0100 and is unique per slot', () => {
    expect(blockNumber(0)).toBe('+12015550100');
    expect(blockNumber(99)).toBe('+12015550199');
    expect(blockNumber(100)).toBe('+12025550100');
    expect(new Set(Array.from({ length: NUMBER_BLOCK_SIZE }, (_, i) => blockNumber(i))).size).toBe(NUMBER_BLOCK_SIZE);
  });

  it('knows numbers outside the block', () => {
    expect(blockSlot('+12015550200')).toBeNull();
    expect(blockSlot('+19995550100')).toBeNull();
    expect(blockSlot('+447700900123')).toBeNull();
    expect(() => blockNumber(NUMBER_BLOCK_SIZE)).toThrow(RangeError);
  });
});
