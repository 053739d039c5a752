import { smallTalkOf } from './small-talk';

describe('smallTalkOf: what a message is when it asks nothing of the knowledge, in five languages', () => {
  it.each([
    ['heyyy', 'en', 'greeting'],
    ['good morning! 😊', 'en', 'greeting'],
    ['olá bom dia', 'pt', 'greeting'],
    ['coucou', 'fr', 'greeting'],
    ['awesome thank u so much!!', 'en', 'thanks'],
    ['genial, muchas gracias!!', 'es', 'thanks'],
    ['show, valeu!', 'pt', 'thanks'],
    ['you guys are amazing 😍', 'en', 'compliment'],
    ['ok', 'en', 'acknowledged'],
    ['i waited 50 minutes and nobody said sorry. ridiculous', 'en', 'complaint'],
    ['me cobrasteis 220 y siguen sonando igual, estoy cabreado', 'es', 'complaint'],
    ['não estou nada satisfeito com a aula', 'pt', 'complaint'],
    ["je suis très déçu, c'est inadmissible", 'fr', 'complaint'],
    ['ich bin sehr unzufrieden', 'de', 'complaint'],
    ['can I talk to a real person', 'en', 'person'],
    ['quero falar com um atendente', 'pt', 'person'],
  ] as const)('%s (%s) → %s', async (text, language, kind) => {
    expect(await smallTalkOf(text, language, null)).toBe(kind);
  });

  it.each([
    ['thanks, and how much is a class?', 'en'],
    ['do you have parking?', 'en'],
    ['¿cuánto cuesta una limpieza?', 'es'],
  ] as const)('a question is not small talk: %s', async (text, language) => {
    expect(await smallTalkOf(text, language, null)).toBeNull();
  });
});
