import { SendMessageBody, TemplateDto, TemplateLanguageDto } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { getMetadataStorage } from 'class-validator';
import { acceptedSendBody, parseSendBody, validatedSendBody } from './send-body';

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
    await expect(fieldsOf({ channel: 'fax', to: '+123', message: 'hi', from: 'me' })).resolves.toEqual(['channel', 'from', 'to']);
  });

  it('takes SMS to an E.164 number, at most 1600 characters, no template (CONTRACT.md §17)', async () => {
    await expect(parseSendBody({ channel: 'sms', to: '+14155550123', message: 'x'.repeat(1600) })).resolves.toMatchObject({ channel: 'sms' });
    await expect(fieldsOf({ channel: 'sms', to: '+14155550123', message: 'x'.repeat(1601) })).resolves.toEqual(['message']);
    await expect(fieldsOf({ channel: 'sms', to: 'US.13491208655302741918', message: 'hi' })).resolves.toEqual(['to']);
    await expect(fieldsOf({ channel: 'sms', to: '+14155550123', template: { name: 'x', language: { code: 'en' } } })).resolves.toContain('template');
    await expect(fieldsOf({ channel: 'sms', to: '+14155550123', message: 'hi', subject: 'x' })).resolves.toEqual(['subject']);
  });

  it('takes email to an address with a required subject and optional html', async () => {
    await expect(parseSendBody({ channel: 'email', to: 'ana@example.com', subject: 'Hello', message: 'Hi Ana', html: '<p>Hi Ana</p>', from: 'hello@acme.test' })).resolves.toMatchObject({
      subject: 'Hello',
      html: '<p>Hi Ana</p>',
    });
    expect(new Set(await fieldsOf({ channel: 'email', to: 'ana@example.com', message: 'Hi' }))).toEqual(new Set(['subject']));
    await expect(fieldsOf({ channel: 'email', to: '+14155550123', subject: 's', message: 'Hi' })).resolves.toEqual(['to']);
    await expect(fieldsOf({ channel: 'email', to: 'ana@example.com', subject: 's', message: 'Hi', from: '+14155550123' })).resolves.toEqual(['from']);
  });

  it('refuses a body that is not an object', async () => {
    const err = await parseSendBody(['x']).catch((e: unknown) => e);
    expect((err as ProblemException).problem.status).toBe(400);
  });
});

describe('acceptedSendBody (the fast path)', () => {
  const to = '+14155550123';
  const template = { name: 'order_ready', language: { code: 'en_US' } };
  const valid: unknown[] = [
    { channel: 'whatsapp', to, message: 'hi' },
    { channel: 'whatsapp', to, message: 'x'.repeat(4096) },
    { channel: 'whatsapp', to, message: '😀'.repeat(4096) },
    { channel: 'whatsapp', to: 'US.13491208655302741918', message: 'hi' },
    { channel: 'whatsapp', to, message: 'hi', from: '+14155550100' },
    { channel: 'whatsapp', to, template },
    { channel: 'whatsapp', to, template: { ...template, language: { code: 'de', policy: 'deterministic' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-17' }] }, null, 3] } },
  ];
  const refused: unknown[] = [
    null,
    'text',
    ['x'],
    {},
    { channel: 'sms', to, message: 'hi' },
    { channel: 'whatsapp', to: '+123', message: 'hi' },
    { channel: 'whatsapp', to: 14155550123, message: 'hi' },
    { channel: 'whatsapp', to, message: '' },
    { channel: 'whatsapp', to, message: 'x'.repeat(4097) },
    { channel: 'whatsapp', to, message: 7 },
    { channel: 'whatsapp', to, message: null },
    { channel: 'whatsapp', to, message: 'hi', template },
    { channel: 'whatsapp', to },
    { channel: 'whatsapp', to, message: 'hi', from: 'me' },
    { channel: 'whatsapp', to, message: 'hi', from: null },
    { channel: 'whatsapp', to, message: 'hi', tenant_id: 'ten_x' },
    { channel: 'whatsapp', to, message: 'hi', extra: 1 },
    { channel: 'whatsapp', to, template: { ...template, name: 'Order Ready' } },
    { channel: 'whatsapp', to, template: { ...template, language: { code: 'english' } } },
    { channel: 'whatsapp', to, template: { ...template, language: { code: 'en', policy: 'fallback' } } },
    { channel: 'whatsapp', to, template: { ...template, language: { code: 'en', extra: 1 } } },
    { channel: 'whatsapp', to, template: { ...template, language: 'en' } },
    { channel: 'whatsapp', to, template: { name: 'x' } },
    { channel: 'whatsapp', to, template: { ...template, components: {} } },
    { channel: 'whatsapp', to, template: { ...template, components: null } },
    { channel: 'whatsapp', to, template: { ...template, extra: 1 } },
    { channel: 'whatsapp', to, template: ['x'] },
    Object.assign(Object.create({ inherited: 1 }) as object, { channel: 'whatsapp', to, message: 'hi' }),
  ];

  // The fast path restates these rules: a changed DTO must fail here until acceptedSendBody follows it.
  it('restates exactly the rules of the send DTOs', () => {
    const rules = (dto: new () => object) =>
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((m) => [m.propertyName, m.name ?? m.type, ...(['isIn', 'isLength', 'matches'].includes(m.name ?? '') ? [String(m.constraints[0]), String(m.constraints[1] ?? '')] : [])].join(' ').trim())
        .sort();
    expect(rules(SendMessageBody)).toEqual([
      'channel isIn whatsapp,sms,email',
      'from isChannelSender',
      'from isOptional',
      'html isLength 1 1000000',
      'html isOptional',
      'html isString',
      'message conditionalValidation',
      'message isLength 1 4096',
      'message isString',
      'subject conditionalValidation',
      'subject isLength 1 998',
      'subject isString',
      'template conditionalValidation',
      'template isObject',
      'template nestedValidation',
      'tenant_id isOptional',
      'tenant_id isString',
      'to isChannelRecipient',
    ]);
    expect(rules(TemplateDto)).toEqual([
      'components isArray',
      'components isOptional',
      'language isDefined',
      'language isObject',
      'language nestedValidation',
      'name isString',
      'name matches /^[a-z0-9_]{1,512}$/',
    ]);
    expect(rules(TemplateLanguageDto)).toEqual(['code isString', 'code matches /^[a-z]{2,3}(_[A-Z]{2})?$/', 'policy isIn deterministic', 'policy isOptional']);
  });

  it('builds exactly what the full check builds, for every body it accepts', async () => {
    for (const raw of valid) {
      const fast = acceptedSendBody(raw);
      expect(fast).toBeDefined();
      expect(fast).toStrictEqual(await validatedSendBody(raw));
    }
  });

  it('leaves everything unusual to the full check, which decides and names the errors', async () => {
    for (const raw of refused) {
      expect(acceptedSendBody(raw)).toBeUndefined();
      // Whatever the full check says, parseSendBody says the same.
      const full = await validatedSendBody(raw).catch((e: unknown) => e);
      const parsed = await parseSendBody(raw).catch((e: unknown) => e);
      expect(parsed).toStrictEqual(full);
    }
  });
});
