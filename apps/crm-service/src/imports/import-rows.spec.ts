import { importColumns, readImportRow } from './import-rows';

describe('contact import rows', () => {
  it('reads the known columns in any case and keeps the others as attribute keys', () => {
    expect(importColumns([' Phone', 'EMAIL', 'name', 'Tags', 'plan', 'seat_count'])).toEqual(['phone', 'email', 'name', 'tags', 'plan', 'seat_count']);
  });

  it('refuses a header without phone, with a column twice, or with a column no attribute key can be', () => {
    expect(() => importColumns(['email', 'name'])).toThrow('phone column');
    expect(() => importColumns(['phone', 'Phone'])).toThrow('twice');
    expect(() => importColumns(['phone', 'favourite colour'])).toThrow('favourite colour');
  });

  it('turns a row into what it sets: empty cells set nothing, tags split on ; or ,', () => {
    expect(readImportRow(3, { phone: ' +14155550123 ', email: '', name: 'Ana', tags: 'vip; paid,vip', plan: 'gold', seats: '' })).toEqual({
      ok: true,
      value: { row: 3, phone: '+14155550123', email: null, name: 'Ana', tags: ['vip', 'paid'], attributes: { plan: 'gold' } },
    });
  });

  it('reports a bad row with its number and the rule it breaks', () => {
    expect(readImportRow(7, { phone: '' })).toEqual({ ok: false, row: 7, error: 'phone is required' });
    expect(readImportRow(8, { phone: '555-1234' })).toMatchObject({ ok: false, row: 8, error: expect.stringContaining('E.164') });
    expect(readImportRow(9, { phone: '+14155550123', email: 'nope' })).toEqual({ ok: false, row: 9, error: 'email must be an email address' });
    expect(readImportRow(10, { phone: '+14155550123', tags: 'x'.repeat(51) })).toMatchObject({ ok: false, row: 10 });
  });
});
