import { OPT_CONFIRMATIONS, confirmationLanguage, optRequestOf } from './opt-out';

describe('optRequestOf', () => {
  it.each([
    ['STOP', 'opted_out', 'STOP', 'en'],
    ['stop', 'opted_out', 'STOP', 'en'],
    ['Stop.', 'opted_out', 'STOP', 'en'],
    ['  unsubscribe!! ', 'opted_out', 'UNSUBSCRIBE', 'en'],
    ['Baja', 'opted_out', 'BAJA', 'es'],
    ['¡BAJA!', 'opted_out', 'BAJA', 'es'],
    ['parar', 'opted_out', 'PARAR', 'pt'],
    ['Arrêt', 'opted_out', 'ARRET', 'fr'],
    ['ARRET !', 'opted_out', 'ARRET', 'fr'],
    ['stopp', 'opted_out', 'STOPP', 'de'],
    ['START', 'opted_in', 'START', 'en'],
    ['alta', 'opted_in', 'ALTA', 'es'],
    ['Voltar', 'opted_in', 'VOLTAR', 'pt'],
    ['reprendre.', 'opted_in', 'REPRENDRE', 'fr'],
    ['Anmelden', 'opted_in', 'ANMELDEN', 'de'],
  ])('%j asks %s (%s, %s)', (text, change, keyword, language) => {
    const request = optRequestOf(text);
    expect(request).toMatchObject({ change, keyword });
    expect(request!.languages[0]).toBe(language);
  });

  it.each(['please stop calling me', 'stop it now', 'I want to start', 'dar de baja mi cuenta', 'stopped', 'constructor', 'toString', ''])(
    '%j is an ordinary message',
    (text) => expect(optRequestOf(text)).toBeNull(),
  );

  it('confirms in the conversation language when the keyword belongs to it, else in the keyword language', () => {
    expect(confirmationLanguage(optRequestOf('STOP')!, 'de')).toBe('de');
    expect(confirmationLanguage(optRequestOf('STOP')!, undefined)).toBe('en');
    expect(confirmationLanguage(optRequestOf('parar')!, 'es')).toBe('es');
    expect(confirmationLanguage(optRequestOf('BAJA')!, 'en')).toBe('es');
    expect(OPT_CONFIRMATIONS.fr.opted_out).toMatch(/REPRENDRE/);
  });
});
