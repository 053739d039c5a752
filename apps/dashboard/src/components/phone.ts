/**
 * A phone number as a person types it ("+1 (415) 555-0123", "0044 20 7946 0958") made into E.164 before it goes to
 * the API, which stays strict. Spaces, dashes, dots and parentheses go; a leading 00 becomes +; a number of 11 to 15
 * digits without the + gets it (a shorter one is left alone: it more likely lacks its country code, which the API says).
 */
export function normalisePhone(typed: string): string {
  const compact = typed.trim().replace(/[\s\-.()\u00a0]/g, '');
  if (/^00\d+$/.test(compact)) return `+${compact.slice(2)}`;
  if (/^\d{11,15}$/.test(compact)) return `+${compact}`;
  return compact;
}
