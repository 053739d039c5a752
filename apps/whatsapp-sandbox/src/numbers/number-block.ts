/**
 * Where allocated sandbox numbers come from: NANP reserves the lines 555-0100 … 555-0199 of every area code for
 * fictional use, so `+1 <area> 555 01xx` never reaches a real person, yet passes phone-number validation (the
 * `+1 555 01x xxxx` form does not: 555 is no valid area code). 50 area codes × 100 lines = 5,000 numbers; slot
 * `n` is line `0100 + n % 100` of the `n / 100`-th area code.
 */
const AREA_CODES = [
  201, 202, 203, 205, 206, 207, 208, 209, 210, 212, 213, 214, 215, 216, 217, 218, 219, 224, 225, 228, 229, 231, 234, 239, 240,
  248, 251, 252, 253, 254, 256, 260, 262, 267, 269, 270, 276, 281, 301, 302, 303, 304, 305, 307, 308, 309, 310, 312, 313, 314,
] as const;
const LINES_PER_AREA = 100;

export const NUMBER_BLOCK_SIZE = AREA_CODES.length * LINES_PER_AREA;

/** The E.164 number of one slot of the block. */
export function blockNumber(slot: number): string {
  if (!Number.isInteger(slot) || slot < 0 || slot >= NUMBER_BLOCK_SIZE) throw new RangeError(`slot ${slot} is outside the sandbox number block`);
  return `+1${AREA_CODES[Math.floor(slot / LINES_PER_AREA)]}5550${100 + (slot % LINES_PER_AREA)}`;
}

/** The slot of a number inside the block, or null for any other number. */
export function blockSlot(phoneNumber: string): number | null {
  const match = /^\+1(\d{3})5550(1\d\d)$/.exec(phoneNumber);
  if (!match) return null;
  const area = AREA_CODES.indexOf(Number(match[1]) as (typeof AREA_CODES)[number]);
  return area < 0 ? null : area * LINES_PER_AREA + (Number(match[2]) - 100);
}
