import { UpsertAgentBody } from '@parley/contracts';
import { ProblemException } from './problem.exception';
import { validateDto } from './validation';

describe('validateDto', () => {
  it('names nested fields with their path and refuses unknown fields', async () => {
    const err = await validateDto(UpsertAgentBody, {
      name: 'support',
      instruction: 'x',
      greeting: '',
      skills: ['faq_responder', 'faq_responder'],
      faqs: [{ question: 'q', answer: 'a' }, { question: '' }],
      booking: { timezone: 'Nowhere/City', slot_minutes: 30, opening_hours: {} },
      colour: 'blue',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemException);
    const { problem } = err as ProblemException;
    expect(problem.status).toBe(400);
    const byField = Object.fromEntries((problem.errors ?? []).map((e) => [e.field, e.message]));
    expect(byField['colour']).toBe('colour is not an allowed field');
    expect(byField['skills']).toContain('must not repeat');
    expect(byField['faqs[1].question']).toMatch(/^faqs\[1\]\.question must be longer than or equal to 1/);
    expect(byField['faqs[1].answer']).toBeDefined();
    expect(byField['booking.timezone']).toContain('IANA time zone');
  });

  it('refuses a body that is not an object', async () => {
    await expect(validateDto(UpsertAgentBody, ['a'])).rejects.toMatchObject({ problem: { status: 400, detail: 'The request body must be a JSON object.' } });
  });

  it('names a missing required field as missing, not by a rule about its length', async () => {
    const err = await validateDto(UpsertAgentBody, { name: 'a', instruction: 'i', skills: [] }).catch((e: unknown) => e);
    const { problem } = err as ProblemException;
    expect(problem.errors).toEqual([{ field: 'greeting', message: 'greeting is required: the first words of a conversation, or "" for none' }]);
  });

  it('returns the typed instance when valid', async () => {
    const ok = await validateDto(UpsertAgentBody, { name: 'a', instruction: 'i', greeting: '', skills: [] });
    expect(ok).toBeInstanceOf(UpsertAgentBody);
  });
});
