import { ConversationDriver } from '../skills/conversation-driver';
import { MONDAY_MORNING, bakery, clinic } from '../skills/test-agents';
import { DeterministicReplyEngine } from './deterministic-reply-engine';
import { MAX_REPLY_CHARS, type ReplyRequest } from './reply-engine';

function request(text: string, firstReply: boolean, agent = bakery): ReplyRequest {
  return {
    tenantId: 'ten_spec',
    agent,
    conversationHistory: [],
    firstReply,
    message: { text, type: 'text', contactName: null },
    customer: '+447911123456',
    state: {},
    now: MONDAY_MORNING,
    calendar: { busy: () => Promise.resolve(new Set<number>()) },
  };
}

describe('DeterministicReplyEngine (the skills engine, no LLM)', () => {
  const engine = new DeterministicReplyEngine();

  it("opens the conversation's first reply with the greeting, and only the first", async () => {
    const first = await engine.reply(request('Hello there', true));
    expect(first.text.startsWith(`${bakery.greeting}\n\n`)).toBe(true);
    const later = await engine.reply(request('Hello there', false));
    expect(later.text).not.toContain(bakery.greeting);
    expect(first.text.endsWith(later.text)).toBe(true);
  });

  it('answers FAQs through typos, other wording and case, with BM25 retrieval', async () => {
    const answers = async (text: string) => (await engine.reply(request(text, false))).text;
    expect(await answers('opening HOURS??')).toBe(bakery.faqs[0].answer);
    expect(await answers('wen r u open')).toBe(bakery.faqs[0].answer);
    expect(await answers('do u do delivrey')).toBe(bakery.faqs[1].answer);
    expect(await answers('Is there any gluten free bread?')).toBe(bakery.faqs[2].answer);
    expect(await answers('price of a birthday cake pls')).toBe(bakery.faqs[3].answer);
    expect(await answers('whats ur adress')).toBe(bakery.faqs[4].answer);
    expect(await answers('can i pay with my card')).toBe(bakery.faqs[5].answer);
  });

  it('works with a single FAQ', async () => {
    const one = { ...bakery, faqs: [{ question: 'Do you accept health insurance?', answer: 'Yes, all major insurers.' }] };
    expect((await engine.reply(request('do u take insurance?', false, one))).text).toBe('Yes, all major insurers.');
    expect((await engine.reply(request('do you sell wine?', false, one))).text).toMatch(/don't know/);
  });

  it('says it does not know below the confidence threshold and offers a person; "yes" hands over', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    const unknown = await chat.say('Can I bring my dog inside?');
    expect(unknown).toMatchObject({ skill: 'faq_responder', handoff: false });
    expect(unknown.text).toContain("I'm sorry, I don't know the answer to that. Would you like me to connect you with a person");
    const yes = await chat.say('yes please');
    expect(yes).toMatchObject({ handoff: true, handoffReason: 'customer_asked_for_human' });
  });

  it('gives up after two unanswerable questions in a row and hands over (skill_gave_up)', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    await chat.say('do you sell wine');
    const second = await chat.say('what about craft beer then');
    expect(second).toMatchObject({ handoff: true, handoffReason: 'skill_gave_up' });
  });

  it('hands over at once when the customer asks for a person, in any wording', async () => {
    for (const text of ['can i talk to a human', 'I want to speak to someone real', 'REAL PERSON PLEASE', 'get me a manager']) {
      expect(await engine.reply(request(text, false))).toMatchObject({ handoff: true, handoffReason: 'customer_asked_for_human' });
    }
    expect(await engine.reply(request('is a person allowed to bring a dog?', false))).toMatchObject({ handoff: false });
  });

  it('on a call, says the caller is being put through (the call is forwarded), not that someone will reply here', async () => {
    const onCall = (text: string) => engine.reply({ ...request(text, false), channel: 'voice' });
    expect(await onCall('can I talk to a real person')).toMatchObject({ handoff: true, text: "Of course. I'm putting you through to a member of our team now." });
    expect((await onCall('this is terrible, I want to complain')).text).toMatch(/^I'm really sorry to hear that\. I'm putting you through/);
    expect((await onCall('ich möchte mit einem Menschen sprechen')).text).toBe('Natürlich. Ich verbinde Sie jetzt mit einem Mitglied unseres Teams.');
    expect((await engine.reply({ ...request('can I talk to a real person', false), channel: 'sms' })).text).toContain('who will reply here shortly');
  });

  it("answers from the instruction's facts and the documents, with sources; never from what the instruction tells the agent to do", async () => {
    const dental = {
      ...bakery,
      instruction: 'You are the assistant of Bloom Dental. Answer questions about opening hours. We are open Mon-Fri 9-5. Parking is free behind the building.',
      faqs: [{ question: 'Do you accept insurance?', answer: 'Yes: Delta Dental, Cigna and Aetna.' }],
    };
    const documents = [{ id: 'doc_1#0', documentId: 'doc_1', title: 'Prices', headings: ['Whitening'], text: 'Teeth whitening costs $350 and takes 90 minutes.' }];
    const ask = (text: string) => engine.reply({ ...request(text, false, dental), documents });
    expect(await ask('wat r ur hrs')).toMatchObject({
      text: 'We are open Mon-Fri 9-5.',
      skill: 'faq_responder',
      sources: [{ type: 'instruction', id: 'instruction-1', title: 'Instruction', excerpt: 'We are open Mon-Fri 9-5.' }],
    });
    expect(await ask('is cigna ok for you guys')).toMatchObject({ text: 'Yes: Delta Dental, Cigna and Aetna.', sources: [{ type: 'faq', id: 'faq-1' }] });
    expect(await ask('how much is whitening')).toMatchObject({ text: 'Teeth whitening costs $350 and takes 90 minutes.', sources: [{ type: 'document', id: 'doc_1#0' }] });
    const brakes = await ask('can you fix my car brakes');
    expect(brakes).toMatchObject({ sources: [] });
    expect(brakes.text).toContain("I don't know the answer to that");
    const noFacts = await engine.reply(request('what are your opening hours?', false, { ...dental, instruction: 'Answer questions about opening hours. Be friendly.', faqs: [] }));
    expect(noFacts).toMatchObject({ sources: [] });
    expect(noFacts.text).toContain("I don't know the answer to that");
  });

  it("answers in the customer's language and keeps it for short messages", async () => {
    const spanish = await engine.reply(request('hola, quiero hablar con una persona', true));
    expect(spanish).toMatchObject({ handoff: true, handoffReason: 'customer_asked_for_human', state: { language: 'es' } });
    expect(spanish.text).toBe(`${bakery.greeting}\n\nPor supuesto. Te paso con una persona de nuestro equipo, que te responderá aquí en breve.`);
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    expect((await chat.say('¿venden vino?')).text).toContain('Lo siento, no sé la respuesta a eso');
    expect((await chat.say('no')).text).toBe('De acuerdo. ¿Hay algo más en lo que pueda ayudarte?');
    expect((await chat.say('ok')).text).toBe('¿Hay algo más en lo que pueda ayudarte?');
    expect((await chat.say('thanks, bye')).state.language).toBe('en');
  });

  it("reads a date in the customer's language when a booking is asked for", async () => {
    for (const text of ['can I come in on 3 December?', '¿puedo ir el 3 de diciembre?']) {
      const reply = await engine.reply(request(text, false, clinic));
      expect({ text, skill: reply.skill, offers: reply.text }).toEqual({ text, skill: 'appointment_booking', offers: expect.stringMatching(/3 (Dec|dic)/) });
    }
  });

  it('answers a question about the business that names a day, never starting a booking with it (CONTRACT §20)', async () => {
    const agent = {
      ...clinic,
      faqs: [
        { question: 'Do you accept health insurance?', answer: 'Yes, we work with all major insurers.' },
        { question: '¿Cuánto cuesta una limpieza?', answer: 'Una limpieza cuesta 60 €.' },
      ],
    };
    for (const [text, answer] of [
      ['do you accept health insurance on 3 December?', 'all major insurers'],
      ['¿cuánto cuesta una limpieza el sábado?', '60 €'],
    ]) {
      const reply = await engine.reply(request(text, false, agent));
      expect({ text, skill: reply.skill, reply: reply.text }).toEqual({ text, skill: 'faq_responder', reply: expect.stringContaining(answer) });
    }
    const unknownPrice = await engine.reply(request('how much is an implant on friday?', false, agent));
    expect(unknownPrice.skill).not.toBe('appointment_booking');
  });

  it('answers a question asked in the middle of a booking, then offers the pending slot again; a yes then books it', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    const offer = await chat.say('can I come on Wednesday at 10am?');
    expect(offer.skill).toBe('appointment_booking');
    expect(offer.text).toContain('10:00');

    const side = await chat.say('before I confirm, do you accept health insurance?');
    expect(side.text).toContain('all major insurers');
    expect(side.text).toContain('10:00'); // the pending slot, offered again, not forced
    expect(side.effects).toEqual({});

    const unknown = await chat.say('and do you sell yoga mats?');
    expect(unknown.sources).toEqual([]);
    expect(unknown.text).toContain('10:00');
    expect(unknown.handoff).toBe(false);

    const yes = await chat.say('yes please');
    expect(yes.effects.appointment).toBeDefined();
    expect(chat.booked()).toHaveLength(1);
  });

  it('hands a complaint to a person with an apology, in the customer’s language', async () => {
    const en = await engine.reply(request('i waited 50 minutes past my appointment and nobody said sorry. ridiculous', false, clinic));
    expect({ handoff: en.handoff, skill: en.skill }).toEqual({ handoff: true, skill: null });
    expect(en.text).not.toContain('10:00');
    const es = await engine.reply(request('me cobrasteis demasiado y sigue igual, estoy muy cabreado', false, clinic));
    expect(es.handoff).toBe(true);
    expect(es.state.language).toBe('es');
  });

  it('answers a greeting, thanks or praise as such, never with a passage', async () => {
    for (const text of ['heyyy 👋', 'awesome thank u so much!!', 'you guys are amazing']) {
      const reply = await engine.reply(request(text, false));
      expect({ text, sources: reply.sources, handoff: reply.handoff }).toEqual({ text, sources: [], handoff: false });
    }
  });

  it('hands over when asked in any of the five languages', async () => {
    const asks = {
      en: 'can I talk to a real person',
      es: 'necesito hablar con alguien',
      pt: 'quero falar com um atendente',
      fr: "je voudrais parler à quelqu'un",
      de: 'ich möchte mit einem Menschen sprechen',
    };
    for (const [language, text] of Object.entries(asks)) {
      expect({ text, reply: await engine.reply(request(text, false)) }).toMatchObject({ text, reply: { handoff: true, state: { language } } });
    }
  });

  it('lets the instruction shape its own wording (formal), never the FAQ answers', async () => {
    const formal = { ...bakery, instruction: 'Be formal and professional.' };
    const reply = await engine.reply(request('do you sell wine', false, formal));
    expect(reply.text).toBe('I apologise, I don\'t know the answer to that. Would you like me to connect you with a person from our team?');
    expect((await engine.reply(request('thanks!', false, formal))).text).not.toContain('!');
    expect((await engine.reply(request('muchas gracias!', false, formal))).text).toBe('¡De nada! ¿Hay algo más en lo que pueda ayudarte?');
    const faqWithBang = { ...formal, faqs: [{ question: 'opening hours', answer: 'Open every day!' }] };
    expect((await engine.reply(request('opening hours?', false, faqWithBang))).text).toBe('Open every day!');
  });

  it('acknowledges without offers when the agent has no skills, and without a greeting when it has none', async () => {
    const quiet = { ...bakery, name: 'front-desk', greeting: '', skills: [], faqs: [] };
    const reply = await engine.reply(request('Hello', true, quiet));
    expect(reply.text).toBe("Thanks for your message! You're chatting with front-desk. We have received it and will get back to you.");
  });

  it('is deterministic: the same request always gets the same reply', async () => {
    const messages = ['opening hours', 'I need an appointment tomorrow', 'my name is Ann, ann@x.io', 'something else entirely', '', '[image] a photo'];
    for (const agent of [bakery, clinic]) {
      for (const text of messages) {
        const replies = await Promise.all([1, 2, 3].map(() => engine.reply(request(text, true, agent))));
        expect(new Set(replies.map((r) => JSON.stringify(r))).size).toBe(1);
      }
    }
  });

  it('keeps a long greeting and answer within one WhatsApp message', async () => {
    const verbose = { ...bakery, greeting: 'g'.repeat(1000), faqs: [{ question: 'opening hours', answer: 'a'.repeat(4000) }] };
    const reply = await engine.reply(request('opening hours', true, verbose));
    expect(reply.text.length).toBe(MAX_REPLY_CHARS);
    expect(reply.text.startsWith('g'.repeat(1000))).toBe(true);
  });
});
