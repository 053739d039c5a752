import { UpsertAgentBody } from '@parley/contracts';
import { unstorableTextErrors } from './unstorable-text';
import { ProblemException } from './problem.exception';
import { ProblemValidationPipe } from './validation';

describe('unstorableTextErrors', () => {
  it('names a string or key holding half of a surrogate pair alone, and keeps whole pairs', () => {
    const errors = unstorableTextErrors({ email: '\udfff\ud800', name: '🛎 bell', nested: { ['k\ud800']: 'x' }, end: 'a\ud83d' });
    expect(errors.map((e) => e.field)).toEqual(['email', 'nested.k\\ud800', 'end']);
    expect(errors[0]?.message).toBe('email must be well-formed Unicode text (it holds half of a surrogate pair, such as \\ud800, alone)');
  });

  it('names every string holding a NUL by its path, deeply', () => {
    const errors = unstorableTextErrors({ name: 'a\u0000b', faqs: [{ question: 'ok' }, { question: '\u0000' }], booking: { tz: { deep: ['x', 'y\u0000'] } } });
    expect(errors.map((e) => e.field)).toEqual(['name', 'faqs[1].question', 'booking.tz.deep[1]']);
    expect(errors[0]?.message).toBe('name must not contain NUL (U+0000) characters');
  });

  it('names a key holding a NUL, escaped', () => {
    expect(unstorableTextErrors({ outer: { 'a\u0000b': 1 } }).map((e) => e.field)).toEqual(['outer.a\\u0000b']);
  });

  it('prefixes a root and names a bare string by it', () => {
    expect(unstorableTextErrors('a\u0000b', 'cursor').map((e) => e.field)).toEqual(['cursor']);
  });

  it('finds nothing in clean values', () => {
    expect(unstorableTextErrors({ a: ['b', 1, null, true, { c: 'd' }] })).toEqual([]);
  });

  it('walks very deep nesting without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableTextErrors(deep)).toHaveLength(1);
  });

  it('reports at most 20 places', () => {
    expect(unstorableTextErrors(Array.from({ length: 500 }, () => '\u0000'))).toHaveLength(20);
  });
});

describe('ProblemValidationPipe and NUL characters', () => {
  const pipe = new ProblemValidationPipe();
  const refusal = (value: unknown, metadata: Parameters<ProblemValidationPipe['transform']>[1]) =>
    pipe.transform(value, metadata).then(
      () => undefined,
      (e: unknown) => (e as ProblemException).problem,
    );

  it('refuses a DTO body with a NUL as a validation problem naming the field and rule', async () => {
    const problem = await refusal({ name: 'a\u0000b', instruction: 'i', greeting: '', skills: [] }, { type: 'body', metatype: UpsertAgentBody });
    expect(problem).toMatchObject({ status: 400, type: 'https://parley.dev/problems/validation-error', detail: 'The request body is not valid.' });
    expect(problem?.errors).toEqual([{ field: 'name', message: 'name must not contain NUL (U+0000) characters' }]);
  });

  it('refuses a path parameter with a NUL', async () => {
    const problem = await refusal('a\u0000b', { type: 'param', metatype: String, data: 'id' });
    expect(problem).toMatchObject({ status: 400, detail: 'The path parameters are not valid.', errors: [{ field: 'id' }] });
  });

  it('refuses a query value with a NUL, whole-object or single', async () => {
    expect(await refusal({ cursor: 'a\u0000b' }, { type: 'query', metatype: Object })).toMatchObject({ detail: 'The query parameters are not valid.', errors: [{ field: 'cursor' }] });
    expect(await refusal('a\u0000b', { type: 'query', metatype: String, data: 'cursor' })).toMatchObject({ errors: [{ field: 'cursor' }] });
  });

  it('leaves an untyped body to its handler (a provider notification is stored as sent)', async () => {
    await expect(pipe.transform({ text: 'a\u0000b' }, { type: 'body', metatype: Object })).resolves.toEqual({ text: 'a\u0000b' });
  });
});
