import type {
  Agent,
  AgentDocument,
  AgentTestCase,
  AgentTestRun,
  CannedReply,
  Contact,
  InboxThread,
  LedgerTransactionPage,
  Member,
  MonthUsageRecord,
  Presence,
  PriceRecord,
  Team,
  UsageDayRecord,
  WalletRecord,
} from '../api';
import type { SignedInMember } from '../session/permissions';
import { PERMISSION_WORK, type Permission } from '../session/permissions';

// Answers of the API as the generated client types them: a fixture that no longer fits the gateway's OpenAPI
// description fails the dashboard's typecheck, so the mocked network cannot drift from the real one unnoticed.

const NOW = '2026-03-02T10:00:00.000Z';

/** A page of a list route (`{data, next_cursor}`). */
export const page = <T>(data: T[], next_cursor: string | null = null) => ({ data, next_cursor });

export function member(overrides: Partial<SignedInMember> = {}): SignedInMember {
  return {
    id: 'usr_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
    name: 'Ada Owner',
    email: 'ada@bakery.example',
    role: 'owner',
    status: 'active',
    created_at: NOW,
    permissions: Object.keys(PERMISSION_WORK) as Permission[],
    ...overrides,
  };
}

export function contact(overrides: Partial<Contact> = {}): Contact {
  return {
    id: 'ctc_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
    name: 'Maria Lopez',
    phone: '+14155550123',
    email: 'maria@example.com',
    tags: ['vip'],
    attributes: {},
    company_id: null,
    opted_out: false,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

export function wallet(overrides: Partial<WalletRecord> = {}): WalletRecord {
  return { balance: '25.000000', currency: 'USD', low_balance_threshold: '5.000000', held: '0.000000', plan: 'free', enforced: true, ...overrides };
}

export function monthUsage(overrides: Partial<MonthUsageRecord> = {}): MonthUsageRecord {
  return {
    month: '2026-03',
    plan: 'free',
    messages: 12,
    free_allowance: 1000,
    free_left: 988,
    data: [{ channel: 'whatsapp', category: 'service', quantity: 12 }],
    period_start: '2026-03-01T00:00:00.000Z',
    period_end: '2026-04-01T00:00:00.000Z',
    ...overrides,
  };
}

export const prices = (): PriceRecord[] => [{ plan: 'free', category: 'marketing', currency: 'USD', unit_price: '0.040000', updated_at: NOW }];

export const usageDays = (): UsageDayRecord[] => [{ day: '2026-03-01', channel: 'whatsapp', category: 'service', quantity: 12 }];

/** The ledger's first page, its newest row explaining `balance` (the page shows both only when they agree). */
export function ledger(balance: string): LedgerTransactionPage {
  return page([
    {
      id: 'txn_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
      type: 'top_up',
      amount: balance,
      balance_change: balance,
      balance_after: balance,
      currency: 'USD',
      cause_id: 'top_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
      description: null,
      created_at: NOW,
    },
  ]);
}

export function cannedReply(overrides: Partial<CannedReply> = {}): CannedReply {
  return { id: 'cnr_01JD3S4ZC5Q2X8V6N7M9P0R1T2', shortcut: 'opening-hours', text: 'Hi {{contact.name}}, we open at 9.', created_at: NOW, updated_at: NOW, ...overrides };
}

export function agent(overrides: Partial<Agent> = {}): Agent {
  return {
    id: 'agt_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
    name: 'front-desk',
    instruction: 'You are the front desk of Crumbs Bakery.',
    greeting: 'Hi!',
    skills: ['faq_responder'],
    faqs: [{ question: 'How much is a birthday cake?', answer: 'A birthday cake is $15.' }],
    booking: null,
    version: 3,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

export function agentTest(overrides: Partial<AgentTestCase> = {}): AgentTestCase {
  return { id: 'tst_01JD3S4ZC5Q2X8V6N7M9P0R1T2', agent: 'front-desk', message: 'How much is a birthday cake?', expect: { contains: '$15' }, created_at: NOW, ...overrides };
}

/** A completed run of version 3 of front-desk, compared with version 2. */
export function agentTestRun(overrides: Partial<AgentTestRun> = {}): AgentTestRun {
  return {
    id: 'run_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
    agent: 'front-desk',
    version: 3,
    trigger: 'version',
    status: 'completed',
    passed: 0,
    failed: 0,
    cases: [],
    fixed: [],
    broken: [],
    previous_version: 2,
    created_at: NOW,
    completed_at: NOW,
    ...overrides,
  };
}

/** A web page document of front-desk, ready and fetched once (no schedule). */
export function agentDocument(overrides: Partial<AgentDocument> = {}): AgentDocument {
  return {
    id: 'doc_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
    title: 'Prices',
    source: 'url',
    url: 'https://crumbs.example/prices',
    status: 'ready',
    chunks: 4,
    error: null,
    refresh: 'off',
    last_refresh: null,
    next_refresh_at: null,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

/** A team member as `GET /api/v1/team` lists them (an agent, active). */
export function teamMember(overrides: Partial<Member> = {}): Member {
  return { id: 'usr_01JD3S4ZC5Q2X8V6N7M9P0R1K1', name: 'Kari Agent', email: 'kari@bakery.example', role: 'agent', status: 'active', created_at: NOW, ...overrides };
}

/** A team open weekdays 09:00–17:00 in Madrid, closed now, sharing conversations in turn, without targets. */
export function team(overrides: Partial<Team> = {}): Team {
  return {
    id: 'tea_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
    name: 'Support',
    members: [],
    routing: 'round_robin',
    capacity_per_member: null,
    reassign_after_seconds: null,
    timezone: 'Europe/Madrid',
    business_hours: { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], wed: [['09:00', '17:00']], thu: [['09:00', '17:00']], fri: [['09:00', '17:00']] },
    holidays: [],
    closed_message: null,
    sla: null,
    open_now: false,
    next_opening_at: '2026-03-02T08:00:00.000Z',
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

/** A member's presence: online, with a dashboard open. */
export function presence(overrides: Partial<Presence> = {}): Presence {
  return { member_id: member().id, status: 'online', available: true, seen_at: NOW, ...overrides };
}

/** A WhatsApp conversation handed to a person, its customer's one question, no team, labels or SLA. */
export function inboxThread(overrides: Partial<InboxThread> = {}): InboxThread {
  const question = { at: NOW, author: { type: 'customer' as const }, text: 'Can I change my order?' };
  return {
    id: 'cnv_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
    channel: 'whatsapp',
    channel_id: 'chn_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
    customer: '+14155550123',
    contact_name: 'Maria Lopez',
    state: 'handed_off',
    assignee: null,
    unread: 1,
    source: 'customer',
    team_id: null,
    labels: [],
    sla: null,
    rating: null,
    last_message: question,
    last_customer_message: question,
    last_message_at: NOW,
    started_at: NOW,
    window_expires_at: '2999-01-01T00:00:00.000Z',
    messages: [{ message_id: 'msg_01JD3S4ZC5Q2X8V6N7M9P0R1T2', role: 'customer', ...question }],
    notes: [],
    ...overrides,
  };
}
