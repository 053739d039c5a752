import { ConversationDriver } from './conversation-driver';
import { extractLeadFacts } from './lead-facts';
import { MONDAY_MORNING, bakery } from './test-agents';

describe('lead_capture', () => {
  it('takes several facts from one message and asks for what is missing, one question at a time', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    const first = await chat.say("Hi, I'm Maria Lopez, interested in a catering quote for 40 people");
    expect(first.skill).toBe('lead_capture');
    expect(first.text).toBe(`${bakery.greeting}\n\nNice to meet you, Maria! What's the best email address to reach you?`);
    expect(chat.leads).toEqual([]);

    const done = await chat.say('its maria.lopez@gmail.com');
    expect(done.text).toContain("I've passed your details to our team");
    expect(chat.leads).toEqual([{ name: 'Maria Lopez', email: 'maria.lopez@gmail.com', phone: '+447911123456', interest: 'catering quote for 40 people' }]);
  });

  it('asks again when an answer cannot be read, and takes a correction (changed mind) over the earlier value', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    expect((await chat.say('can someone contact me about a wedding cake?')).text).toContain('May I have your name?');
    expect((await chat.say('tom')).text).toBe("Nice to meet you, Tom! What's the best email address to reach you?");
    expect((await chat.say('tom at gmail')).text).toBe("Sorry, I couldn't read that as an email address. What's the best email address to reach you?");
    expect((await chat.say('sorry: tom@gmial.com')).text).toContain("I've passed your details");
    const fixed = await chat.say('oops typo, my email is tom@gmail.com');
    expect(fixed.text).toContain("I've updated your details");
    expect(chat.leads.map((l) => l.email)).toEqual(['tom@gmial.com', 'tom@gmail.com']);
    expect(chat.leads[1]).toMatchObject({ name: 'Tom', interest: 'wedding cake' });
  });

  it('reads a local phone number in the customer country (libphonenumber) and asks for the interest last', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING, '+447911123456');
    const reply = await chat.say('My name is ann smith, email ANN@Example.org, call me on 07700 900 461');
    expect(reply.text).toBe(`${bakery.greeting}\n\nNice to meet you, Ann! What are you interested in?`);
    await chat.say('mostly birthday cakes for my kids party');
    expect(chat.leads).toEqual([{ name: 'Ann Smith', email: 'ann@example.org', phone: '+447700900461', interest: 'birthday cakes for my kids party' }]);
  });

  it('answers a side question from the FAQs mid-capture, then asks the pending question again', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING);
    await chat.say('I would like a quote for office lunches');
    const side = await chat.say('do you deliver?');
    expect(side.text).toBe(`${bakery.faqs[1].answer}\n\nMay I have your name?`);
    expect((await chat.say('Priya')).text).toContain('email');
  });

  it('asks for a phone number when the customer is known only by a business-scoped id', async () => {
    const chat = new ConversationDriver(bakery, MONDAY_MORNING, 'US.13491208655302741918');
    await chat.say("I'm Li Wei, li@wei.cn, interested in a corporate order");
    expect(chat.state.lead?.asking).toBe('phone');
    await chat.say('+86 139 1099 8888');
    expect(chat.leads[0]).toMatchObject({ name: 'Li Wei', phone: '+8613910998888' });
  });

  it.each([
    ["I'm interested in the sourdough course", { interest: 'sourdough course' }],
    ['im looking for a cake', { interest: 'cake' }],
    ['This is Sarah from Acme, we need a quote for office lunches', { name: 'Sarah', interest: 'quote for office lunches' }],
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
  ])('extracts facts from %j', (text, facts) => {
    expect(extractLeadFacts(text as string, { customerNumber: '+447911123456' })).toEqual(facts);
  });
});
