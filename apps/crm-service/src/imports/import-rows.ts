import { MAX_CONTACT_TAGS, attributesError, isE164, type ContactAttributes } from '@parley/contracts';
import { isEmail } from 'class-validator';

/** The columns a contact import knows (CONTRACT.md §14); any other column is an attribute. */
export const KNOWN_COLUMNS = ['phone', 'email', 'name', 'tags'] as const;
const ATTRIBUTE_COLUMN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/** One valid data row: what it sets on the contact of its number. Empty cells set nothing. */
export interface ImportRow {
  row: number;
  phone: string;
  email: string | null;
  name: string | null;
  tags: string[];
  attributes: ContactAttributes;
}

export type RowOutcome = { ok: true; value: ImportRow } | { ok: false; row: number; error: string };

/**
 * The header row as column names: the known ones in any case, the others kept as attribute keys. Throws (the whole
 * file fails) when there is no phone column or a column cannot be an attribute key.
 */
export function importColumns(header: string[]): string[] {
  const columns = header.map((cell) => {
    const name = cell.trim();
    const known = KNOWN_COLUMNS.find((k) => k === name.toLowerCase());
    if (known) return known;
    if (!ATTRIBUTE_COLUMN.test(name)) throw new Error(`column "${name.slice(0, 80)}" must be phone, email, name, tags, or an attribute key (1 to 64 letters, digits, _ . -)`);
    return name;
  });
  if (!columns.includes('phone')) throw new Error('the header row must have a phone column');
  if (new Set(columns).size !== columns.length) throw new Error('the header row names a column twice');
  return columns;
}

/** Checks one data row (`row` counts from 1, the first row after the header) with the rules of the contacts API. */
export function readImportRow(row: number, record: Record<string, string | undefined>): RowOutcome {
  const cell = (name: string) => {
    const value = record[name]?.trim();
    return value ? value : null;
  };
  const phone = cell('phone');
  if (!phone) return { ok: false, row, error: 'phone is required' };
  if (!isE164(phone)) return { ok: false, row, error: 'phone must be a valid phone number in E.164 format with a leading + (e.g. +14155550123)' };
  const email = cell('email');
  if (email !== null && (email.length > 254 || !isEmail(email))) return { ok: false, row, error: 'email must be an email address' };
  const name = cell('name');
  if (name !== null && name.length > 200) return { ok: false, row, error: 'name must be at most 200 characters' };
  const tags = [...new Set((cell('tags') ?? '').split(/[;,]/).map((t) => t.trim()).filter(Boolean))];
  if (tags.length > MAX_CONTACT_TAGS || tags.some((t) => t.length > 50)) return { ok: false, row, error: `tags must be at most ${MAX_CONTACT_TAGS} tags of 1 to 50 characters, separated by ; or ,` };
  const attributes: ContactAttributes = {};
  for (const [key, value] of Object.entries(record)) {
    if ((KNOWN_COLUMNS as readonly string[]).includes(key)) continue;
    const text = value?.trim();
    if (text) attributes[key] = text;
  }
  const attributeError = attributesError(attributes);
  if (attributeError) return { ok: false, row, error: attributeError };
  return { ok: true, value: { row, phone, email, name, tags, attributes } };
}
