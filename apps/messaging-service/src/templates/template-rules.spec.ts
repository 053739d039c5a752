import { sendParameterProblems, templateProblems, variablesOf } from './template-rules';

const body = (text: string, example?: string[]) => ({ type: 'BODY', text, ...(example ? { example: { body_text: [example] } } : {}) });
const fields = (input: Parameters<typeof templateProblems>[0]) => templateProblems(input).map((e) => e.field);
const valid = { name: 'order_ready', language: 'en_US', category: 'UTILITY', components: [body('Order {{1}} is ready, {{2}}.', ['A-17', 'Ana'])] };

describe('templateProblems (Cloud API template rules)', () => {
  it('accepts a full template with header, body, footer and buttons', () => {
    expect(
      templateProblems({
        ...valid,
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}', example: { header_text: ['Ana'] } },
          body('Order {{1}} is ready.', ['A-17']),
          { type: 'FOOTER', text: 'Reply STOP to opt out' },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Thanks' }, { type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}' }, { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+14155550123' }] },
        ],
      }),
    ).toEqual([]);
  });

  it.each([
    ['a name with capitals', { ...valid, name: 'Order Ready' }, 'name'],
    ['an unknown language shape', { ...valid, language: 'english' }, 'language'],
    ['an unknown category', { ...valid, category: 'PROMO' }, 'category'],
    ['no components', { ...valid, components: [] }, 'components'],
    ['no BODY', { ...valid, components: [{ type: 'FOOTER', text: 'x' }] }, 'components'],
    ['an unknown component type', { ...valid, components: [body('x'), { type: 'CAROUSEL' }] }, 'components[1].type'],
    ['a body over 1024 characters', { ...valid, components: [body('x'.repeat(1025))] }, 'components[0].text'],
    ['variables with a gap', { ...valid, components: [body('Hi {{1}} {{3}}', ['a', 'b'])] }, 'components[0].text'],
    ['variables without examples', { ...valid, components: [body('Hi {{1}}')] }, 'components[0].example.body_text'],
    ['a footer with a variable', { ...valid, components: [body('x'), { type: 'FOOTER', text: 'Bye {{1}}' }] }, 'components[1].text'],
    ['a header over 60 characters', { ...valid, components: [{ type: 'HEADER', format: 'TEXT', text: 'h'.repeat(61) }, body('x')] }, 'components[0].text'],
    ['a button label over 25 characters', { ...valid, components: [body('x'), { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'b'.repeat(26) }] }] }, 'components[1].buttons[0].text'],
    ['eleven buttons', { ...valid, components: [body('x'), { type: 'BUTTONS', buttons: Array(11).fill({ type: 'QUICK_REPLY', text: 'ok' }) }] }, 'components[1].buttons'],
    ['a URL button without a URL', { ...valid, components: [body('x'), { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go' }] }] }, 'components[1].buttons[0].url'],
  ])('refuses %s, naming the field', (_label, input, field) => {
    expect(fields(input)).toContain(field);
  });
});

describe('sendParameterProblems', () => {
  const definition = [
    { type: 'HEADER', format: 'IMAGE' },
    body('Order {{1}} is ready, {{2}}.', ['A-17', 'Ana']),
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'ok' }, { type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}' }] },
  ];
  const filled = [
    { type: 'header', parameters: [{ type: 'image', image: { link: 'https://shop.example/a.jpg' } }] },
    { type: 'body', parameters: [{ type: 'text', text: 'A-17' }, { type: 'text', text: 'Ana' }] },
    { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'A-17' }] },
  ];

  it('accepts every placeholder filled', () => expect(sendParameterProblems(definition, filled)).toEqual([]));

  it('names each component left short', () => {
    const problems = sendParameterProblems(definition, [filled[0], { type: 'body', parameters: [{ type: 'text', text: 'A-17' }] }]);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringContaining('the body component needs 2 parameter(s), 1 given'),
      expect.stringContaining('the button 1 component needs 1 parameter(s), 0 given'),
    ]);
    expect(problems.every((p) => p.field === 'template.components')).toBe(true);
  });

  it('refuses parameters for a template without placeholders', () => {
    expect(sendParameterProblems([body('Hello')], [{ type: 'body', parameters: [{ type: 'text', text: 'x' }] }])).toHaveLength(1);
    expect(sendParameterProblems([body('Hello')], undefined)).toEqual([]);
  });

  it('reads variables in order', () => expect(variablesOf('{{1}} and {{ 2 }} then {{1}}')).toEqual([1, 2, 1]));
});
