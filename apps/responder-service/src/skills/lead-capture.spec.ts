import { ConversationDriver } from './conversation-driver';
import { extractLeadFacts } from './lead-facts';
import { MONDAY_MORNING, bakery, clinic } from './test-agents';

describe('lead_capture', () => {
  it('stores the lead once a name and a way to reach the person are known, then updates it with later details', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    const first = await chat.say("Hi, I'm Maria Lopez, interested in a catering quote for 40 people");
    expect(first.skill).toBe('lead_capture');
    expect(first.text).toBe(`${bakery.greeting}\n\nNice to meet you, Maria! What's the best email address to reach you?`);
    // The WhatsApp number is a way to reach her: the lead is stored at once.
    expect(chat.leads).toEqual([{ name: 'Maria Lopez', phone: '+447911123456', interest: 'catering quote for 40 people' }]);

    const done = await chat.say('its maria.lopez@gmail.com');
    expect(done.text).toBe(
      "Thank you, Maria! I've passed your details to our team (Maria Lopez, maria.lopez@gmail.com, +447911123456, interested in catering quote for 40 people). Someone will be in touch soon.",
    );
    expect(chat.leads[1]).toEqual({ name: 'Maria Lopez', email: 'maria.lopez@gmail.com', phone: '+447911123456', interest: 'catering quote for 40 people' });
    expect(chat.state.lead).toMatchObject({ done: true, stored: true });

    // Saying nothing new changes nothing.
    await chat.say('thanks!');
    expect(chat.leads).toHaveLength(2);
  });

  it('follows "hey there! i\'m Maria Lopez and i\'d like to know more about teeth whitening" then "sure, its maria.lopez@example.org"', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    const first = await chat.say("hey there! i'm Maria Lopez and i'd like to know more about teeth whitening");
    expect(first.text).toContain('Nice to meet you, Maria!');
    expect(chat.leads).toEqual([{ name: 'Maria Lopez', phone: '+447911123456', interest: 'teeth whitening' }]);
    await chat.say('sure, its maria.lopez@example.org');
    expect(chat.leads[1]).toMatchObject({ name: 'Maria Lopez', email: 'maria.lopez@example.org', interest: 'teeth whitening' });
  });

  it('takes a bare name answering its question, an email inside a sentence, and a correction', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING, 'US.13491208655302741918');
    expect((await chat.say('can you send me a quote for a wedding cake?')).text).toContain('May I have your name?');
    expect((await chat.say('tom')).text).toBe("Nice to meet you, Tom! What's the best email address to reach you?");
    // Known only by a business-scoped id: no lead until there is a way to reach him.
    expect(chat.leads).toEqual([]);
    expect((await chat.say('tom@gmial')).text).toContain("couldn't read that as an email address");
    await chat.say('ok you can write to tom@gmial.com whenever');
    expect(chat.leads.map((l) => l.email)).toEqual(['tom@gmial.com']);
    const fixed = await chat.say('oops typo, my email is tom@gmail.com');
    expect(fixed.text).toContain("I've updated your details");
    expect(chat.leads.map((l) => l.email)).toEqual(['tom@gmial.com', 'tom@gmail.com']);
    expect(chat.leads[1]).toMatchObject({ name: 'Tom', interest: 'wedding cake' });
  });

  it('reads "call me Tom" and a local phone number in the customer\'s country, and asks for the interest last', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    const reply = await chat.say('call me Tom Smith, ann@example.org or 07700 900461');
    expect(reply.text).toBe(`${bakery.greeting}\n\nNice to meet you, Tom! What are you interested in?`);
    await chat.say('mostly birthday cakes for my kids party');
    expect(chat.leads.at(-1)).toEqual({ name: 'Tom Smith', email: 'ann@example.org', phone: '+447700900461', interest: 'birthday cakes for my kids party' });
  });

  it('does not ask again for an email the customer will not give', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    await chat.say('my name is Priya, I want a quote for office lunches');
    expect(chat.state.lead?.asking).toBe('email');
    const skipped = await chat.say("i'd rather not, just whatsapp me");
    expect(skipped.text).toContain("I've passed your details to our team");
    expect(chat.state.lead).toMatchObject({ done: true, declined: ['email'] });
    expect(chat.leads).toEqual([{ name: 'Priya', phone: '+447911123456', interest: 'office lunches' }]);
  });

  it('remembers a name given earlier in the conversation ("Hi, this is Dave. Can I book…"), before lead capture began', async () => {
    const chat = new ConversationDriver({ ...clinic, skills: [...clinic.skills, 'lead_capture'] }, MONDAY_MORNING);
    await chat.say('Hi, this is Dave. Can I book tuesday at 10am?');
    await chat.say('yes');
    expect(chat.bookings).toHaveLength(1);
    await chat.say('my email is dave@example.io');
    expect(chat.leads).toEqual([{ name: 'Dave', email: 'dave@example.io', phone: '+447911123456' }]);
  });

  it('answers a side question from the FAQs mid-capture, then asks the pending question again', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    await chat.say('I would like a quote for office lunches');
    const side = await chat.say('do you deliver?');
    expect(side.text).toBe(`${bakery.faqs[1].answer}\n\nMay I have your name?`);
    expect((await chat.say('Priya')).text).toContain('email');
  });

  it.each([
    ['es', 'hola, me llamo Ana García y quiero saber más sobre el blanqueamiento dental', 'Ana García', 'blanqueamiento dental', '¿Cuál es el mejor correo', 'claro, es ana.garcia@correo.es', '¡Gracias, Ana!'],
    ['pt', 'oi, meu nome é João Silva, tenho interesse em clareamento dental', 'João Silva', 'clareamento dental', 'Qual é o melhor e-mail', 'pode ser joao.silva@email.com.br', 'Obrigado, João!'],
    ['fr', "bonjour, je m'appelle Luc Martin et j'aimerais en savoir plus sur le blanchiment des dents", 'Luc Martin', 'blanchiment des dents', 'Quelle est la meilleure adresse e-mail', "oui c'est luc.martin@exemple.fr", 'Merci, Luc !'],
    ['de', 'Hallo, ich heiße Jonas Weber und interessiere mich für Zahnaufhellung', 'Jonas Weber', 'Zahnaufhellung', 'Unter welcher E-Mail-Adresse', 'klar, jonas.weber@beispiel.de', 'Danke, Jonas!'],
  ])('collects a lead in %s over two messages, asking in that language', async (_language, opening, name, interest, asksEmail, answer, thanks) => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING, '+34612345678');
    const first = await chat.say(opening);
    expect(first.skill).toBe('lead_capture');
    expect(first.text).toContain(asksEmail);
    expect(chat.leads).toEqual([{ name, phone: '+34612345678', interest }]);
    const done = await chat.say(answer);
    expect(done.text).toContain(thanks);
    expect(chat.leads[1]).toMatchObject({ name, interest, email: answer.split(' ').at(-1) });
  });

  it.each([
    ["I'm interested in the sourdough course", { interest: 'sourdough course' }],
    ['im looking for a cake', { interest: 'cake' }],
    ['This is Sarah from Acme, we need a quote for office lunches', { name: 'Sarah', interest: 'office lunches' }],
    ['you can reach me at +1 415 555 0100', { phone: '+14155550100' }],
    ["I'm not sure yet", {}],
    ['my email is john dot smith at example dot com', { email: 'john.smith@example.com' }],
    ['john.smith at example.co.uk', { email: 'john.smith@example.co.uk' }],
    ['ann(at)mail(dot)org', { email: 'ann@mail.org' }],
    ['Jo [at] jo-design [dot] io', { email: 'jo@jo-design.io' }],
    ["I'm at work. Later", {}],
    ['tom at gmail', {}],
    // The customer's +44 7911 number is a Guernsey one: local numbers are still read with +44's rules.
    ['call me on 07700 900461', { phone: '+447700900461' }],
    ['call me Tom', { name: 'Tom' }],
    ["I'm Maria", { name: 'Maria' }],
    ['soy Lucía, mi correo es lucia@correo.es', { name: 'Lucía', email: 'lucia@correo.es' }],
    ['me chamo Ana Paula', { name: 'Ana Paula' }],
    ["moi c'est Chloé", { name: 'Chloé' }],
    ['mein Name ist Lena Fischer', { name: 'Lena Fischer' }],
    ['ich bin interessiert', {}],
    ['quiero información sobre implantes', { interest: 'implantes' }],
    ['je voudrais des informations sur le blanchiment', { interest: 'blanchiment' }],
    ['soy nueva aquí', {}],
  ])('extracts facts from %j', (text, facts) => {
    expect(extractLeadFacts(text as string, { customerNumber: '+447911123456' })).toEqual(facts);
  });
});
