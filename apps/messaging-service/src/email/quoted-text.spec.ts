import { stripQuotedHistory } from './quoted-text';

describe('stripQuotedHistory', () => {
  it('keeps only the new text above a Gmail-style quote', () => {
    const mail = 'Yes, Tuesday works.\n\nOn Sat, 28 Nov 2026 at 12:00, Acme <hello@acme.test> wrote:\n> When would you like to come in?\n> Acme';
    expect(stripQuotedHistory(mail)).toBe('Yes, Tuesday works.');
  });

  it('cuts an Outlook original-message block and a signature', () => {
    expect(stripQuotedHistory('Thanks!\r\n-----Original Message-----\r\nFrom: Acme\r\nSent: today\r\nOld text')).toBe('Thanks!');
    expect(stripQuotedHistory('See you then\n-- \nAna Lopez\nCEO')).toBe('See you then');
    expect(stripQuotedHistory('Sure\n\nFrom: Acme <hello@acme.test>\nSent: Monday\nTo: Ana\n\nold')).toBe('Sure');
  });

  it('leaves a mail without history as it is (minus outer blank lines)', () => {
    expect(stripQuotedHistory('\nHello,\nI would like to book.\n')).toBe('Hello,\nI would like to book.');
  });
});
