import { parseWhen } from './calendar';

// Tuesday 1 Dec 2026, 09:00 UTC (10:00 in Madrid, Paris and Berlin).
const NOW = new Date('2026-12-01T09:00:00.000Z');

describe('parseWhen: dates and times in the five languages, in the agent time zone', () => {
  it.each([
    ['en', 'thursday at 2pm', { year: 2026, month: 12, day: 3 }, { hour: 14, minute: 0 }],
    ['en', 'tmrw 10:30', { year: 2026, month: 12, day: 2 }, { hour: 10, minute: 30 }],
    ['es', 'el viernes a las 4', { year: 2026, month: 12, day: 4 }, { hour: 16, minute: 0 }],
    ['es', 'manana a las 10', { year: 2026, month: 12, day: 2 }, { hour: 10, minute: 0 }],
    ['pt', 'sexta às 16h', { year: 2026, month: 12, day: 4 }, { hour: 16, minute: 0 }],
    ['pt', 'amanha as 9h30', { year: 2026, month: 12, day: 2 }, { hour: 9, minute: 30 }],
    ['fr', 'jeudi à 14h', { year: 2026, month: 12, day: 3 }, { hour: 14, minute: 0 }],
    ['fr', 'demain 10h30', { year: 2026, month: 12, day: 2 }, { hour: 10, minute: 30 }],
    ['de', 'Freitag um 16 Uhr', { year: 2026, month: 12, day: 4 }, { hour: 16, minute: 0 }],
    ['de', 'morgen um 9', { year: 2026, month: 12, day: 2 }, { hour: 9, minute: 0 }],
  ] as const)('%s: %j', (language, text, date, time) => {
    expect(parseWhen(text, 'Europe/Madrid', NOW, { language })).toEqual({ date, time });
  });

  it('reads an hour said to be in the afternoon or evening, and an early clock time with no am or pm, as the afternoon', () => {
    expect(parseWhen('salgo a las 7 de la tarde', 'UTC', NOW, { language: 'es' }).time).toEqual({ hour: 19, minute: 0 });
    expect(parseWhen('posso às 8 da noite?', 'UTC', NOW, { language: 'pt' }).time).toEqual({ hour: 20, minute: 0 });
    expect(parseWhen('vendredi à 6h du soir', 'UTC', NOW, { language: 'fr' }).time).toEqual({ hour: 18, minute: 0 });
    expect(parseWhen('could i get a cleaning on friday at 2:30?', 'UTC', NOW).time).toEqual({ hour: 14, minute: 30 });
    expect(parseWhen('friday at 2:30 am', 'UTC', NOW).time).toEqual({ hour: 2, minute: 30 });
    expect(parseWhen('friday at 9:30', 'UTC', NOW).time).toEqual({ hour: 9, minute: 30 });
  });

  it('reads a lone number as an hour only inside a booking dialogue ("actually 11 would be better")', () => {
    expect(parseWhen('actually 11 would be better', 'UTC', NOW)).toEqual({ date: null, time: null });
    expect(parseWhen('actually 11 would be better', 'UTC', NOW, { bareHour: true })).toEqual({ date: null, time: { hour: 11, minute: 0 } });
    expect(parseWhen('mejor 5', 'UTC', NOW, { language: 'es', bareHour: true })).toEqual({ date: null, time: { hour: 17, minute: 0 } });
    expect(parseWhen('we are 4 people', 'UTC', NOW, { bareHour: true })).toEqual({ date: null, time: null });
  });

  it('does not take another language\'s short word for a day (English reads the French "mon" as Monday)', () => {
    expect(parseWhen('je veux annuler mon rendez-vous', 'Europe/Paris', NOW, { language: 'fr' })).toEqual({ date: null, time: null });
  });
});
