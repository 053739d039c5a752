import type { AgentRecord } from '@parley/contracts';
import { bakery, clinic } from './test-agents';

/** One scripted customer message, what the engine answers (checked by scripted-conversations.spec.ts) and whether that is right. */
export interface ScriptedStep {
  say: string;
  reply: string;
  skill: string | null;
  handoff: boolean;
  /** Judged by hand: is this what a good human receptionist would have answered? */
  verdict: 'right' | 'wrong';
  note?: string;
}

export interface ScriptedConversation {
  agent: AgentRecord;
  steps: ScriptedStep[];
}

/**
 * Scripted conversations across the three skills, with the deterministic engine's answers at Monday 23 Nov 2026 08:00
 * London time. The closing note's table is made from this; known failures are kept (verdict 'wrong') so a change that
 * fixes or breaks one shows up here.
 */
export const SCRIPTED_CONVERSATIONS: ScriptedConversation[] = [
  {
    agent: bakery,
    steps: [
      { say: "hi", reply: "Hi! I am the bakery assistant.\n\nThanks for your message! You're chatting with bakery. I can answer your questions or pass your details to our team. How can I help you today?", skill: null, handoff: false, verdict: "right" },
      { say: "wen r u open on saturdays??", reply: "We are open 8:00-18:00, Monday to Saturday.", skill: "faq_responder", handoff: false, verdict: "right" },
      { say: "do u do delivrey", reply: "Yes, we deliver cakes within 10 km.", skill: "faq_responder", handoff: false, verdict: "right" },
      { say: "how much is a birthday cake", reply: "Birthday cakes start at 30 EUR.", skill: "faq_responder", handoff: false, verdict: "right" },
      { say: "whats ur adress", reply: "We are at 12 Main Street, next to the station.", skill: "faq_responder", handoff: false, verdict: "right" },
      { say: "can I pay with apple pay", reply: "Yes, we take all major cards and contactless.", skill: "faq_responder", handoff: false, verdict: "right", note: "Matched on 'pay' only; the answer (contactless) happens to fit." },
      { say: "do you sell wine?", reply: "I'm sorry, I don't know the answer to that. Would you like me to connect you with a person from our team?", skill: "faq_responder", handoff: false, verdict: "right" },
      { say: "no thanks", reply: "No problem. Is there anything else I can help you with?", skill: null, handoff: false, verdict: "right" },
      { say: "is there parking nearby?", reply: "I'm sorry, I don't know the answer to that. Would you like me to connect you with a person from our team?", skill: "faq_responder", handoff: false, verdict: "right" },
      { say: "ok get me a human then", reply: "Of course. I'm passing you to a member of our team, who will reply here shortly.", skill: null, handoff: true, verdict: "right" },
    ],
  },
  {
    agent: bakery,
    steps: [
      { say: "Can I order a cake for tomorrow?", reply: "Hi! I am the bakery assistant.\n\nI'm sorry, I don't know the answer to that. Would you like me to connect you with a person from our team?", skill: "faq_responder", handoff: false, verdict: "right", note: "No FAQ covers ordering: says so and offers a person instead of guessing (the cost FAQ shares 'cake')." },
      { say: "do you have vegan options", reply: "I'm sorry, I don't know that either. I'm passing you to a member of our team, who will reply here.", skill: "faq_responder", handoff: true, verdict: "right", note: "Second unknown in a row: the FAQ skill gives up and hands over." },
    ],
  },
  {
    agent: bakery,
    steps: [
      { say: "Hi, I'm Maria Lopez, interested in a catering quote for 40 ppl", reply: "Hi! I am the bakery assistant.\n\nNice to meet you, Maria! What's the best email address to reach you?", skill: "lead_capture", handoff: false, verdict: "right" },
      { say: "maria.lopez@gmail", reply: "Sorry, I couldn't read that as an email address. What's the best email address to reach you?", skill: "lead_capture", handoff: false, verdict: "right" },
      { say: "maria.lopez@gmail.com", reply: "Thank you, Maria! I've passed your details to our team (Maria Lopez, maria.lopez@gmail.com, +447911123456, interested in catering quote for 40 ppl). Someone will be in touch soon.", skill: "lead_capture", handoff: false, verdict: "right" },
      { say: "actually my email is maria@lopez.dev", reply: "Thanks, Maria, I've updated your details: Maria Lopez, maria@lopez.dev, +447911123456, interested in catering quote for 40 ppl.", skill: "lead_capture", handoff: false, verdict: "right" },
    ],
  },
  {
    agent: bakery,
    steps: [
      { say: "can someone call me back about a wedding cake?", reply: "Hi! I am the bakery assistant.\n\nThanks! May I have your name?", skill: "lead_capture", handoff: false, verdict: "right" },
      { say: "do you deliver?", reply: "Yes, we deliver cakes within 10 km.\n\nMay I have your name?", skill: "faq_responder", handoff: false, verdict: "right" },
      { say: "tom", reply: "Nice to meet you, Tom! What's the best email address to reach you?", skill: "lead_capture", handoff: false, verdict: "right" },
      { say: "tom at gmail dot com", reply: "Thank you, Tom! I've passed your details to our team (Tom, tom@gmail.com, +447911123456, interested in wedding cake). Someone will be in touch soon.", skill: "lead_capture", handoff: false, verdict: "right", note: "An address spelt out in words is read." },
      { say: "sorry its tom dot baker at gmail dot com", reply: "Thanks, Tom, I've updated your details: Tom, tom.baker@gmail.com, +447911123456, interested in wedding cake.", skill: "lead_capture", handoff: false, verdict: "right", note: "A correction, spelt out, replaces the stored email." },
      { say: "thx", reply: "You're welcome! Is there anything else I can help you with?", skill: null, handoff: false, verdict: "right" },
    ],
  },
  {
    agent: bakery,
    steps: [
      { say: "hello i want a quote for office lunches, im Priya Shah, priya@acme.co, reach me on 07911 222333", reply: "Hi! I am the bakery assistant.\n\nThank you, Priya! I've passed your details to our team (Priya Shah, priya@acme.co, +447911222333, interested in quote for office lunches). Someone will be in touch soon.", skill: "lead_capture", handoff: false, verdict: "right" },
    ],
  },
  {
    agent: clinic,
    steps: [
      { say: "hi, I need an apointment pls", reply: "Welcome to Riverside Physio.\n\nI can offer Mon 23 Nov at 09:00, 09:30 or 10:00 (Europe/London). Which suits you?", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "the second one", reply: "Shall I book Mon 23 Nov, 09:30 (Europe/London) for you? Reply yes to confirm.", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "yes", reply: "You're booked for Mon 23 Nov, 09:30–10:00 (Europe/London). See you then.", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "actually make it Thursday", reply: "Shall I move your appointment from Mon 23 Nov, 09:30 to Thu 26 Nov, 09:30 (Europe/London)? Reply yes to confirm.", skill: "appointment_booking", handoff: false, verdict: "right", note: "Changed mind: keeps 09:30, moves the day." },
      { say: "yep", reply: "Done, your appointment is moved to Thu 26 Nov, 09:30–10:00 (Europe/London). See you then.", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "thanks!", reply: "You're welcome. Is there anything else I can help you with?", skill: null, handoff: false, verdict: "right" },
    ],
  },
  {
    agent: clinic,
    steps: [
      { say: "can I come saturday at 10?", reply: "Welcome to Riverside Physio.\n\nI apologise, we're not open at Sat 28 Nov, 10:00 (our hours: Mon–Thu 09:00–17:00; Fri 09:00–13:00). I can offer Mon 30 Nov at 09:00, 09:30 or 10:00 (Europe/London). Which suits you?", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "sunday then", reply: "I apologise, we're closed on Sundays (our hours: Mon–Thu 09:00–17:00; Fri 09:00–13:00). I can offer Mon 30 Nov at 09:00, 09:30 or 10:00 (Europe/London). Which suits you?", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "tmrw at 3pm", reply: "Shall I book Tue 24 Nov, 15:00 (Europe/London) for you? Reply yes to confirm.", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "no wait, 4pm instead", reply: "Shall I book Tue 24 Nov, 16:00 (Europe/London) for you? Reply yes to confirm.", skill: "appointment_booking", handoff: false, verdict: "right", note: "Changed mind before confirming: keeps the day." },
      { say: "ok", reply: "You're booked for Tue 24 Nov, 16:00–16:30 (Europe/London). See you then.", skill: "appointment_booking", handoff: false, verdict: "right" },
    ],
  },
  {
    agent: clinic,
    steps: [
      { say: "book me in friday 3pm", reply: "Welcome to Riverside Physio.\n\nI apologise, we're not open at Fri 27 Nov, 15:00 (our hours: Mon–Thu 09:00–17:00; Fri 09:00–13:00). I can offer Fri 27 Nov at 11:30, 12:00 or 12:30 (Europe/London). Which suits you?", skill: "appointment_booking", handoff: false, verdict: "right", note: "Out of hours (Friday closes 13:00): refused with the nearest free slots that day." },
      { say: "how about 9.30 on friday", reply: "Shall I book Fri 27 Nov, 09:30 (Europe/London) for you? Reply yes to confirm.", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "no", reply: "Certainly. Which other day or time would suit you?", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "whenever really", reply: "The earliest free time is Mon 23 Nov, 09:00 (Europe/London). Shall I book it for you? Reply yes to confirm.", skill: "appointment_booking", handoff: false, verdict: "right", note: "'Any time' proposes the earliest free slot." },
      { say: "dunno", reply: "I apologise, I didn't catch a day or time. You can say something like \"Tuesday at 10am\", or pick one of Mon 23 Nov at 09:00, 09:30 or 10:00 (Europe/London).", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "you pick", reply: "The earliest free time is Mon 23 Nov, 09:00 (Europe/London). Shall I book it for you? Reply yes to confirm.", skill: "appointment_booking", handoff: false, verdict: "right", note: "Leaving the choice to the agent proposes the earliest free slot." },
      { say: "yes", reply: "You're booked for Mon 23 Nov, 09:00–09:30 (Europe/London). See you then.", skill: "appointment_booking", handoff: false, verdict: "right" },
    ],
  },
  {
    agent: clinic,
    steps: [
      { say: "do you accept health insurance?", reply: "Welcome to Riverside Physio.\n\nYes, we work with all major insurers.", skill: "faq_responder", handoff: false, verdict: "right" },
      { say: "can I book for next monday at 9:15?", reply: "Appointments start every 30 minutes. I can offer Mon 30 Nov at 09:00, 09:30 or 10:00 (Europe/London). Which suits you?", skill: "appointment_booking", handoff: false, verdict: "right", note: "Off the 30-minute grid: nearest slots offered." },
      { say: "9:30 then", reply: "Shall I book Mon 30 Nov, 09:30 (Europe/London) for you? Reply yes to confirm.", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "yes please", reply: "You're booked for Mon 30 Nov, 09:30–10:00 (Europe/London). See you then.", skill: "appointment_booking", handoff: false, verdict: "right" },
      { say: "I'd like to talk to a real person", reply: "Of course. I'm passing you to a member of our team, who will reply here shortly.", skill: null, handoff: true, verdict: "right" },
    ],
  },
];
