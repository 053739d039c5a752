import type { ContactRecord } from '@parley/contracts';
import { fillTemplate } from './template-variables';

const contact = (over: Partial<ContactRecord>): ContactRecord => ({
  id: 'ctc_01JDAAAAAAAAAAAAAAAAAAAAAA',
  phone: '+14155550100',
  email: null,
  name: null,
  company_id: null,
  tags: [],
  attributes: {},
  opted_out: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const template = {
  name: 'order_update',
  language: 'en',
  components: [{ type: 'body', parameters: [{ type: 'text', text: 'Hi {{contact.name}}' }, { type: 'text', text: '{{ contact.attributes.city }}' }] }],
};

describe('fillTemplate', () => {
  it('fills contact fields and attributes into every parameter', () => {
    const { template: filled, empty } = fillTemplate(template, contact({ name: 'Ada', attributes: { city: 'Lisbon' } }));
    expect(filled).toEqual({
      name: 'order_update',
      language: { code: 'en' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Hi Ada' }, { type: 'text', text: 'Lisbon' }] }],
    });
    expect(empty).toEqual([]);
  });

  it('names each parameter that would be empty', () => {
    const { empty } = fillTemplate(template, contact({ name: 'Ada', attributes: { city: '  ' } }));
    expect(empty).toEqual([{ path: 'components[0].parameters[1].text', variable: '{{ contact.attributes.city }}' }]);
  });

  it('renders numbers and booleans as text and leaves other text alone', () => {
    const { template: filled } = fillTemplate(
      { name: 't', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text', text: '{{contact.attributes.n}}/{{contact.attributes.vip}}' }] }] },
      contact({ attributes: { n: 3, vip: false } }),
    );
    expect((filled.components![0] as { parameters: { text: string }[] }).parameters[0].text).toBe('3/false');
  });
});
