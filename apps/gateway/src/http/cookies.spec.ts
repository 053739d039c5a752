import { parseCookies, serializeCookie } from './cookies';

describe('cookies', () => {
  it('parses a Cookie header: spaces, quotes, encoded values, first of a repeated name', () => {
    const cookies = parseCookies(' a=1; b="two"; c=x%20y; a=ignored; broken; =nameless; d=');
    expect([...cookies]).toEqual([
      ['a', '1'],
      ['b', 'two'],
      ['c', 'x y'],
      ['d', ''],
    ]);
    expect(parseCookies(undefined).size).toBe(0);
    expect(parseCookies('e=%E0%A4%A').get('e')).toBe('%E0%A4%A');
  });

  it('writes the attributes, and an expiry in the past for a deletion', () => {
    expect(serializeCookie('s', 'v/1', { httpOnly: true, secure: true, sameSite: 'Strict', path: '/', maxAge: 60 })).toBe(
      's=v%2F1; Path=/; Max-Age=60; SameSite=Strict; HttpOnly; Secure',
    );
    expect(serializeCookie('s', '', { httpOnly: false, secure: false, sameSite: 'Strict', path: '/', maxAge: 0 })).toBe(
      's=; Path=/; Max-Age=0; SameSite=Strict; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    );
  });
});
