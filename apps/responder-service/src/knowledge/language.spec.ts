import { detectLanguage } from './language';

describe('detectLanguage', () => {
  it.each([
    ['hola, quiero hablar con una persona', 'es'],
    ['¿cuánto cuesta una limpieza?', 'es'],
    ['olá, vocês abrem no sábado?', 'pt'],
    ['quanto custa um clareamento?', 'pt'],
    ['bonjour, vous êtes ouverts le samedi ?', 'fr'],
    ['je voudrais parler à quelqu’un', 'fr'],
    ['hallo, habt ihr samstags offen?', 'de'],
    ['ich möchte mit einem Menschen sprechen', 'de'],
    ['wat r ur hrs', 'en'],
    ['is cigna ok for you guys', 'en'],
    ['can you fix my car brakes', 'en'],
  ])('%s → %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it("keeps the conversation's language for short or ambiguous text, English by default", () => {
    for (const text of ['ok', '10:30', 'Maria Lopez', 'maria.lopez@example.org', '👍', '']) {
      expect(detectLanguage(text, 'es')).toBe('es');
      expect(detectLanguage(text)).toBe('en');
    }
  });

  it('reads no language into email and web addresses, phone numbers, times and other numbers', () => {
    for (const text of ['maria.lopez@gmail.com', 'juan.perez@hotmail.com', 'https://www.bloomdental.com/precios', 'bloomdental.com', '+44 7911 123456', '10:30', '15h30', '2026-11-26']) {
      for (const previous of ['en', 'es', 'de'] as const) expect(detectLanguage(text, previous)).toBe(previous);
    }
  });

  it('reads the words around them', () => {
    expect(detectLanguage('mi correo es maria.lopez@gmail.com', 'en')).toBe('es');
    expect(detectLanguage('meu número é +55 11 91234-5678, obrigado', 'en')).toBe('pt');
    expect(detectLanguage('can we do 10:30 tomorrow please', 'fr')).toBe('en');
  });

  it('switches when the customer clearly writes another language', () => {
    expect(detectLanguage('hello, do you speak English?', 'de')).toBe('en');
    expect(detectLanguage('gracias, hasta luego', 'en')).toBe('es');
  });
});
