import type { AgentRecord } from '@parley/contracts';

/** Agents the skill tests and the scripted fixture talk to. */
export const bakery: AgentRecord = {
  id: 'agt_01JBAKERY0000000000000000',
  name: 'bakery',
  instruction: 'You answer questions about our bakery and collect catering enquiries.',
  greeting: 'Hi! I am the bakery assistant.',
  skills: ['faq_responder', 'lead_capture'],
  faqs: [
    { question: 'What are your opening hours?', answer: 'We are open 8:00-18:00, Monday to Saturday.' },
    { question: 'Do you deliver cakes?', answer: 'Yes, we deliver cakes within 10 km.' },
    { question: 'Do you have gluten-free bread?', answer: 'Yes, every day from 10:00.' },
    { question: 'How much does a birthday cake cost?', answer: 'Birthday cakes start at 30 EUR.' },
    { question: 'Where are you located?', answer: 'We are at 12 Main Street, next to the station.' },
    { question: 'Can I pay by card?', answer: 'Yes, we take all major cards and contactless.' },
  ],
  booking: null,
  version: 1,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

export const clinic: AgentRecord = {
  ...bakery,
  id: 'agt_01JCLINIC0000000000000000',
  name: 'clinic',
  instruction: 'You are the professional and formal receptionist of a physiotherapy clinic.',
  greeting: 'Welcome to Riverside Physio.',
  skills: ['appointment_booking', 'faq_responder'],
  faqs: [{ question: 'Do you accept health insurance?', answer: 'Yes, we work with all major insurers.' }],
  booking: {
    timezone: 'Europe/London',
    slot_minutes: 30,
    opening_hours: { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], wed: [['09:00', '17:00']], thu: [['09:00', '17:00']], fri: [['09:00', '13:00']] },
  },
};

/** Monday 23 Nov 2026, 08:00 in London (UTC in winter): before opening. */
export const MONDAY_MORNING = new Date('2026-11-23T08:00:00.000Z');
