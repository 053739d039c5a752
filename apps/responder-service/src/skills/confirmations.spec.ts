import { asksToCancel, isNo, isYes } from './confirmations';

describe('yes, no and cancel in five languages', () => {
  it.each([
    'yes', 'Yes confirm', 'yep thats fine', 'sure!', 'ok', 'sounds good', 'no problem', '👍',
    'sí', 'sí quiero', 'si', 'Si, vale', 'si claro', 'Claro que sí', 'vale, perfecto', 'de acuerdo',
    'sim', 'pode ser', 'beleza', 'tá bom',
    'oui', "d'accord", "oui c'est parfait", 'ça marche',
    'ja', 'Ja, passt', 'genau', 'alles klar', 'gerne',
  ])('%j is a yes', (text) => {
    expect([isYes(text), isNo(text)]).toEqual([true, false]);
  });

  it.each(['no', 'nope', 'no thanks', 'nah', 'no, gracias', 'mejor no', 'não', 'nao obrigado', 'non', 'non merci', 'nein', 'nee', 'lieber nicht'])(
    '%j is a no',
    (text) => {
      expect([isYes(text), isNo(text)]).toEqual([false, true]);
    },
  );

  it.each(['maybe', 'what times do you have?', 'tomorrow at 10', 'si tienen hueco el lunes', 'si es posible mañana', 'jamais'])('%j is neither', (text) => {
    expect([isYes(text), isNo(text)]).toEqual([false, false]);
  });

  it.each(['cancel my appointment', 'I need to cancel', "can't make it tomorrow", 'cancelar mi cita', 'quero desmarcar', 'je dois annuler', 'Termin absagen', 'ich sage den Termin ab', 'bitte stornieren'])(
    '%j asks to cancel',
    (text) => {
      expect(asksToCancel(text)).toBe(true);
    },
  );

  it.each(['can I book an appointment?', 'is cancellation free?', 'Annecy is lovely'])('%j does not ask to cancel', (text) => {
    expect(asksToCancel(text)).toBe(false);
  });
});
