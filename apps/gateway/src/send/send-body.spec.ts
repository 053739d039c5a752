import { ProblemException } from '@parley/service-kit';
import { parseSendBody } from './send-body';

const fieldsOf = async (raw: unknown) => {
  const err = await parseSendBody(raw).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProblemException);
  return (err as ProblemException).problem.errors!.map((e) => e.field).sort();
};

describe('parseSendBody', () => {
  it('accepts a text message and a template', async () => {
    await expect(parseSendBody({ channel: 'whatsapp', to: '+14155550123', message: 'hi' })).resolves.toMatchObject({ message: 'hi' });
    await expect(parseSendBody({ channel: 'whatsapp', to: '+14155550123', template: { name: 'hello_world', language: { code: 'en_US' } } })).resolves.toMatchObject({
      template: { name: 'hello_world' },
    });
  });

  it('names both message and template when both or neither are given', async () => {
    await expect(fieldsOf({ channel: 'whatsapp', to: '+14155550123' })).resolves.toEqual(['message', 'template']);
    await expect(fieldsOf({ channel: 'whatsapp', to: '+14155550123', message: 'hi', template: { name: 'x', language: { code: 'en' } } })).resolves.toEqual([
      'message',
      'template',
    ]);
  });

  it('reports every broken field at once', async () => {
    await expect(fieldsOf({ channel: 'sms', to: '+123', message: 'hi', from: 'me' })).resolves.toEqual(['channel', 'from', 'to']);
  });

  it('refuses a body that is not an object', async () => {
    const err = await parseSendBody(['x']).catch((e: unknown) => e);
    expect((err as ProblemException).problem.status).toBe(400);
  });
});
