import type { ContactRecord } from '@parley/contracts';
import ICAL from 'ical.js';
import { contactVCard, foldLine } from './vcard';

const contact = (fields: Partial<ContactRecord> = {}): ContactRecord => ({
  id: 'ctc_01JD8ZC2K3M4N5P6Q7R8S9T0V1',
  phone: '+14155550123',
  email: 'ana@example.com',
  name: 'Ana Lima',
  company_id: null,
  tags: [],
  attributes: {},
  opted_out: false,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-21T08:00:00.000Z',
  ...fields,
});

/** The vCard parsed back with ical.js (which reads RFC 6350 too). */
const parse = (text: string) => new ICAL.Component(ICAL.parse(text));

describe('contactVCard: a contact as vCard 4.0', () => {
  it('reads back with its name, number, email, company, tags and revision', () => {
    const card = parse(contactVCard(contact({ tags: ['vip', 'paid'] }), 'Acme Corp'));
    expect(card.name).toBe('vcard');
    expect(card.getFirstPropertyValue('version')).toBe('4.0');
    expect(card.getFirstPropertyValue('uid')).toBe('ctc_01JD8ZC2K3M4N5P6Q7R8S9T0V1');
    expect(card.getFirstPropertyValue('fn')).toBe('Ana Lima');
    expect(card.getFirstPropertyValue('tel')).toBe('tel:+14155550123');
    expect(card.getFirstProperty('tel')!.getParameter('type')).toBe('cell');
    expect(card.getFirstPropertyValue('email')).toBe('ana@example.com');
    expect(card.getFirstPropertyValue('org')).toBe('Acme Corp');
    expect(card.getFirstProperty('categories')!.getValues()).toEqual(['vip', 'paid']);
    expect(String(card.getFirstPropertyValue('rev'))).toBe('2026-11-21T08:00:00Z');
  });

  it('escapes commas, semicolons, backslashes and newlines, so they read back as written', () => {
    const name = 'Lima, Ana; "Jr." \\ of\nLisbon';
    const card = parse(contactVCard(contact({ name, tags: ['a,b', 'c;d'] }), 'Smith; Jones, Ltd'));
    expect(card.getFirstPropertyValue('fn')).toBe(name);
    expect(card.getFirstProperty('categories')!.getValues()).toEqual(['a,b', 'c;d']);
    // ORG is compound (name; units): the escaped semicolon stays inside the one field
    expect(card.getFirstPropertyValue('org')).toBe('Smith; Jones, Ltd');
    expect(card.getAllProperties()).toHaveLength(9);
  });

  it('folds long lines at 75 octets without splitting a character, and they unfold to the original', () => {
    const name = 'Zoë Ñúñez-Øster '.repeat(12).trim() + ' 😀';
    const text = contactVCard(contact({ name }), null);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(parse(text).getFirstPropertyValue('fn')).toBe(name);
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('names a contact without a name by its number, and one without a number by its email', () => {
    expect(parse(contactVCard(contact({ name: null }), null)).getFirstPropertyValue('fn')).toBe('+14155550123');
    const emailOnly = parse(contactVCard(contact({ name: null, phone: null }), null));
    expect(emailOnly.getFirstPropertyValue('fn')).toBe('ana@example.com');
    expect(emailOnly.getFirstProperty('tel')).toBeNull();
  });
});
