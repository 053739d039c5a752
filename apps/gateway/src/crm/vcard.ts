import type { ContactRecord } from '@parley/contracts';

/**
 * RFC 6350 §3.4: a TEXT value escapes backslash, comma and newline; a semicolon only in a field of a compound property
 * (ORG, N, ADR), where it would otherwise separate fields (elsewhere escaping it is optional, and some readers keep the
 * backslash).
 */
export function escapeText(value: string, compound = false): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
  return compound ? escaped.replace(/;/g, '\\;') : escaped;
}

/** RFC 6350 §3.2: lines longer than 75 octets are folded (CRLF and a space), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    // the first line holds 75 octets; each continuation line starts with a space, leaving 74
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** `20261121T080000Z`: a vCard timestamp (RFC 6350 §4.3.5) in UTC. */
const timestampOf = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/**
 * The contact as a vCard 4.0 (RFC 6350), for `GET /api/v1/contacts/{id}.vcf`: its name (or, without one, its number or
 * email, since FN is required), number as a `tel:` URI, email, company as ORG, tags as CATEGORIES.
 */
export function contactVCard(contact: ContactRecord, companyName: string | null): string {
  const lines = ['BEGIN:VCARD', 'VERSION:4.0', 'PRODID:-//Parley//Contacts//EN', `UID;VALUE=text:${contact.id}`];
  lines.push(`FN:${escapeText(contact.name ?? contact.phone ?? contact.email ?? contact.id)}`);
  if (contact.phone) lines.push(`TEL;VALUE=uri;TYPE=cell:tel:${contact.phone}`);
  if (contact.email) lines.push(`EMAIL:${escapeText(contact.email)}`);
  if (companyName) lines.push(`ORG:${escapeText(companyName, true)}`);
  if (contact.tags.length > 0) lines.push(`CATEGORIES:${contact.tags.map((tag) => escapeText(tag)).join(',')}`);
  lines.push(`REV:${timestampOf(contact.updated_at)}`, 'END:VCARD');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
