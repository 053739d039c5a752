import { ProblemException } from '@parley/service-kit';
import { canonicalJson, fingerprint, parseIdempotencyKey } from './idempotency-key';

describe('Idempotency-Key', () => {
  it('accepts 1 to 255 printable ASCII characters, and no header at all', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('order-17 / attempt 1')).toBe('order-17 / attempt 1');
    expect(parseIdempotencyKey('k'.repeat(255))).toBe('k'.repeat(255));
  });

  it.each([[''], ['k'.repeat(256)], ['tab\there'], ['naïve'], ['new\nline'], [['a', 'b']]])('refuses %j with a 400 naming the header', (value) => {
    let thrown: unknown;
    try {
      parseIdempotencyKey(value);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProblemException);
    expect((thrown as ProblemException).problem).toMatchObject({ status: 400, errors: [{ field: 'Idempotency-Key' }] });
  });

  it('compares bodies as data: key order does not matter, values do', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(fingerprint({ to: '+1', message: 'hi' })).toBe(fingerprint({ message: 'hi', to: '+1' }));
    expect(fingerprint({ to: '+1', message: 'hi' })).not.toBe(fingerprint({ to: '+1', message: 'hi!' }));
    expect(fingerprint({ to: '+1', message: 'hi', from: undefined })).toBe(fingerprint({ to: '+1', message: 'hi' }));
  });
});
