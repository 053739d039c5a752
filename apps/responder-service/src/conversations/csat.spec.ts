import { ratingIn, ratingQuestion } from './csat';

describe('CSAT', () => {
  it('asks on WhatsApp with a list of five (WhatsApp allows three buttons), in words on SMS and email, never on a call', () => {
    const whatsapp = ratingQuestion('whatsapp', 'es');
    expect(whatsapp?.content).toMatchObject({
      type: 'interactive',
      interactive: { type: 'list', body: '¿Cómo valorarías la ayuda que recibiste hoy?', button: 'Valorar', sections: [{ rows: expect.any(Array) }] },
    });
    const rows = whatsapp?.content.type === 'interactive' && whatsapp.content.interactive.type === 'list' ? whatsapp.content.interactive.sections[0].rows : [];
    expect(rows.map((r) => r.id)).toEqual(['csat:5', 'csat:4', 'csat:3', 'csat:2', 'csat:1']);
    expect(rows.every((r) => r.title.length <= 24)).toBe(true);
    expect(ratingQuestion('sms', 'en')?.content).toEqual({ type: 'text', text: 'How would you rate the help you got today? Reply with a number from 1 (very poor) to 5 (excellent).' });
    expect(ratingQuestion('voice', 'en')).toBeNull();
  });

  it('reads a tapped row, a lone number or stars as the rating, and nothing else', () => {
    expect(ratingIn({ type: 'interactive', text: '4 · Good', interactive: { id: 'csat:4', title: '4 · Good' } })).toBe(4);
    for (const [text, score] of [['5', 5], [' 3 ', 3], ['4/5', 4], ['2 stars', 2], ['5 estrellas', 5], ['⭐⭐⭐⭐', 4], ['1!', 1]] as const) {
      expect({ text, score: ratingIn({ type: 'text', text }) }).toEqual({ text, score });
    }
    for (const text of ['6', '0', 'I want 2 pizzas', 'thanks', '10', '']) expect({ text, score: ratingIn({ type: 'text', text }) }).toEqual({ text, score: null });
    expect(ratingIn({ type: 'interactive', text: 'Yes', interactive: { id: 'yes', title: 'Yes' } })).toBeNull();
  });
});
