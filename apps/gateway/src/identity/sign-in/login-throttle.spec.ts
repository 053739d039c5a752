import { normaliseEmail, standingOf } from './login-throttle';

describe('login throttle', () => {
  it('locks from the limit-th failure on, until the window ends', () => {
    expect(standingOf(0, -2, 10)).toEqual({ locked: false });
    expect(standingOf(9, 600, 10)).toEqual({ locked: false });
    expect(standingOf(10, 600, 10)).toEqual({ locked: true, retryAfter: 600 });
    expect(standingOf(25, 3, 10)).toEqual({ locked: true, retryAfter: 3 });
  });

  it('asks for at least a second, and unlocks a counter that is already gone', () => {
    expect(standingOf(10, 0, 10)).toEqual({ locked: true, retryAfter: 1 });
    expect(standingOf(10, -2, 10)).toEqual({ locked: false });
    expect(standingOf(Number.NaN, 600, 10)).toEqual({ locked: false });
  });

  it('counts one email however it is written', () => {
    expect(normaliseEmail('  Ana.Lopez@Example.COM ')).toBe('ana.lopez@example.com');
  });
});
