/**
 * An API identifier made from a display name: "Fjord Bikes assistant" → "fjord-bikes-assistant". Accents go
 * ("Café Ørn" → "cafe-orn"), anything but letters and digits becomes one "-", at most 64 characters (an agent's name
 * in the API: a letter or digit, then letters, digits, "_", "." or "-").
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/gi, 'o')
    .replace(/æ/gi, 'ae')
    .replace(/å/gi, 'a')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}
