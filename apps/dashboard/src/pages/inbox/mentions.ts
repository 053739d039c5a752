/**
 * @mentions in internal notes (CONTRACT.md §18): people write "@Kari Nordmann", the API takes "@usr_…"; shown again
 * with the name. Names are matched longest first, case ignored, so "@Kari Nordmann" wins over a "@Kari".
 */
export interface Mentionable {
  id: string;
  name: string;
}

const ID_MENTION = /@(usr_[0-9A-HJKMNP-TV-Z]{26})/g;

/** The note as sent: each "@Name" of a member becomes "@usr_…"; other "@" words stay as written. */
export function mentionsToIds(text: string, people: readonly Mentionable[]): string {
  const byLength = [...people].filter((p) => p.name.trim()).sort((a, b) => b.name.length - a.name.length);
  let out = text;
  for (const person of byLength) {
    const name = person.name.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`@${name}(?![\\p{L}\\p{N}])`, 'giu'), `@${person.id}`);
  }
  return out;
}

/** The note as shown: each "@usr_…" becomes "@Name" ("@you" for the reader; an unknown id stays as it is). */
export function mentionsToNames(text: string, people: readonly Mentionable[], me: string | undefined): string {
  return text.replace(ID_MENTION, (whole, id: string) => (id === me ? '@you' : (() => {
    const person = people.find((p) => p.id === id);
    return person ? `@${person.name}` : whole;
  })()));
}
