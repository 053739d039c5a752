import { newId, type BillingCategory } from '@parley/contracts';
import * as fc from 'fast-check';
import { ChargesService } from '../metering/charges.service';
import { startBillingService, type BillingServiceUnderTest } from '../test/billing-service-under-test';
import { WalletsService } from './wallets.service';

/** Prices of the seeded `pro` price book, in millionths. */
const PRO_PRICES: Record<'service' | 'utility' | 'marketing', bigint> = { service: 4_000n, utility: 15_000n, marketing: 40_000n };

type Op =
  | { kind: 'top_up'; micros: bigint }
  | { kind: 'accept'; category: keyof typeof PRO_PRICES }
  | { kind: 'sent' | 'failed'; pick: number }
  | { kind: 'debit'; micros: bigint };

const amount = fc.bigInt({ min: 1n, max: 200_000n });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('top_up' as const), micros: amount }),
  fc.record({ kind: fc.constant('accept' as const), category: fc.constantFrom('service' as const, 'utility' as const, 'marketing' as const) }),
  fc.record({ kind: fc.constantFrom('sent' as const, 'failed' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('debit' as const), micros: amount }),
);

const decimal = (micros: bigint): string => `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0')}`;

/**
 * Random sequences of top-ups, holds (accepted sends), settlements (sent), releases and refunds (failed before or
 * after sent) and operator debits, against real PostgreSQL: after every step the cached balance equals the sum of
 * the wallet's ledger entries, every transaction balances, nothing is below zero, and the money matches a model
 * kept in integer millionths.
 */
describe('wallet ledger (property)', () => {
  let billing: BillingServiceUnderTest;
  let wallets: WalletsService;
  let charges: ChargesService;

  beforeAll(async () => {
    billing = await startBillingService('ledger-property');
    wallets = billing.app.get(WalletsService);
    charges = billing.app.get(ChargesService);
  }, 120_000);
  afterAll(() => billing?.close());

  it('keeps balance == sum(ledger) and never below zero', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const tenantId = newId('ten');
        await wallets.setPlan(tenantId, 'pro');
        const model = { balance: 0n, held: 0n };
        const messages: { id: string; price: bigint; state: 'held' | 'unfunded' | 'settled' | 'released' | 'refunded' }[] = [];

        for (const step of ops) {
          switch (step.kind) {
            case 'top_up':
              await wallets.topUp(tenantId, decimal(step.micros), newId('evt'));
              model.balance += step.micros;
              break;
            case 'debit': {
              const refused = await wallets
                .adjust(tenantId, { amount: `-${decimal(step.micros)}`, reference: newId('evt'), description: 'property' })
                .then(() => false, (err: { problem?: { status: number } }) => err.problem?.status === 409);
              if (model.balance >= step.micros) {
                expect(refused).toBe(false);
                model.balance -= step.micros;
              } else expect(refused).toBe(true);
              break;
            }
            case 'accept': {
              const id = newId('msg');
              const price = PRO_PRICES[step.category];
              await charges.transaction((m) => charges.onAccepted(m, { tenantId, messageId: id, channel: 'whatsapp', category: step.category as BillingCategory, day: '2026-11-28', quantity: 1 }));
              if (model.balance >= price) {
                model.balance -= price;
                model.held += price;
                messages.push({ id, price, state: 'held' });
              } else messages.push({ id, price, state: 'unfunded' });
              break;
            }
            default: {
              if (!messages.length) break;
              const message = messages[step.pick % messages.length];
              await charges.transaction((m) => charges.onOutcome(m, tenantId, message.id, step.kind));
              if (message.state === 'held') {
                model.held -= message.price;
                if (step.kind === 'failed') model.balance += message.price;
                message.state = step.kind === 'sent' ? 'settled' : 'released';
              } else if (message.state === 'settled' && step.kind === 'failed') {
                model.balance += message.price;
                message.state = 'refunded';
              }
            }
          }
          const totals = await billing.ledgerTotals(tenantId);
          expect(totals).toEqual({
            balance: decimal(model.balance),
            held: decimal(model.held),
            wallet_entries: decimal(model.balance),
            holds_entries: decimal(model.held),
            unbalanced_transactions: 0,
          });
        }
      }),
      { numRuns: 60, seed: 23 },
    );
  });

  it('decides a batch of sends and outcomes exactly as one at a time, in order (acceptMany, onOutcomes)', async () => {
    type Accept = { category: keyof typeof PRO_PRICES } | { again: number };
    const batchOp = fc.oneof(
      fc.record({ kind: fc.constant('top_up' as const), micros: amount }),
      fc.record({
        kind: fc.constant('accepts' as const),
        sends: fc.array(
          fc.oneof(
            fc.record({ category: fc.constantFrom('service' as const, 'utility' as const, 'marketing' as const) }) as fc.Arbitrary<Accept>,
            fc.record({ again: fc.nat() }) as fc.Arbitrary<Accept>,
          ),
          { minLength: 1, maxLength: 8 },
        ),
      }),
      fc.record({
        kind: fc.constant('outcomes' as const),
        outcomes: fc.array(fc.record({ pick: fc.nat(), outcome: fc.constantFrom('sent' as const, 'failed' as const) }), { minLength: 1, maxLength: 8 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(batchOp, { minLength: 1, maxLength: 12 }), async (ops) => {
        const tenantId = newId('ten');
        await wallets.setPlan(tenantId, 'pro');
        const model = { balance: 0n, held: 0n };
        const messages: { id: string; price: bigint; state: 'held' | 'unfunded' | 'settled' | 'released' | 'refunded' }[] = [];
        for (const step of ops) {
          if (step.kind === 'top_up') {
            await wallets.topUp(tenantId, decimal(step.micros), newId('evt'));
            model.balance += step.micros;
          } else if (step.kind === 'accepts') {
            const sends = step.sends.map((send) => {
              // Sending a message again (an earlier one, or one earlier in this batch) charges nothing more.
              if ('again' in send && messages.length) return { id: messages[send.again % messages.length].id, category: 'service' as const };
              const category = 'category' in send ? send.category : 'service';
              const id = newId('msg');
              const price = PRO_PRICES[category];
              if (model.balance >= price) {
                model.balance -= price;
                model.held += price;
                messages.push({ id, price, state: 'held' });
              } else messages.push({ id, price, state: 'unfunded' });
              return { id, category };
            });
            await charges.transaction((m) =>
              charges.acceptMany(
                m,
                sends.map((send) => ({ tenantId, messageId: send.id, channel: 'whatsapp', category: send.category as BillingCategory, day: '2026-11-28', quantity: 1 })),
              ),
            );
          } else {
            if (!messages.length) continue;
            const outcomes = step.outcomes.map(({ pick, outcome }) => {
              const message = messages[pick % messages.length];
              if (message.state === 'held') {
                model.held -= message.price;
                if (outcome === 'failed') model.balance += message.price;
                message.state = outcome === 'sent' ? 'settled' : 'released';
              } else if (message.state === 'settled' && outcome === 'failed') {
                model.balance += message.price;
                message.state = 'refunded';
              }
              return { tenantId, messageId: message.id, outcome };
            });
            await charges.transaction((m) => charges.onOutcomes(m, outcomes));
          }
          expect(await billing.ledgerTotals(tenantId)).toEqual({
            balance: decimal(model.balance),
            held: decimal(model.held),
            wallet_entries: decimal(model.balance),
            holds_entries: decimal(model.held),
            unbalanced_transactions: 0,
          });
        }
        const states = (await billing.sql.query(`SELECT message_id, state FROM charges WHERE tenant_id = $1`, [tenantId])) as { message_id: string; state: string }[];
        expect(Object.fromEntries(states.map((row) => [row.message_id, row.state]))).toEqual(Object.fromEntries(messages.map((m) => [m.id, m.state])));
      }),
      { numRuns: 40, seed: 19 },
    );
  });

  it('refuses to let the ledger or the cached balance be edited behind it, and an unbalanced transaction', async () => {
    const tenantId = newId('ten');
    await wallets.topUp(tenantId, '1', newId('evt'));
    await expect(billing.sql.query(`UPDATE ledger_entries SET amount = amount * 2 WHERE tenant_id = $1`, [tenantId])).rejects.toThrow(/append-only/);
    await expect(billing.sql.query(`UPDATE wallets SET balance = 5 WHERE tenant_id = $1`, [tenantId])).rejects.toThrow(/moves only with ledger entries/);
    // An unbalanced transaction fails at commit.
    await expect(
      billing.sql.transaction(async (m) => {
        await m.query(`INSERT INTO ledger_transactions (id, tenant_id, kind, amount, currency, cause_id, balance_after) VALUES ('txn_x', $1, 'top_up', 1, 'USD', 'x', 2)`, [
          tenantId,
        ]);
        await m.query(`INSERT INTO ledger_entries (transaction_id, tenant_id, account, amount, currency) VALUES ('txn_x', $1, 'wallet', 1, 'USD')`, [tenantId]);
      }),
    ).rejects.toThrow(/does not balance/);
    expect(await billing.ledgerTotals(tenantId)).toMatchObject({ balance: '1.000000', wallet_entries: '1.000000' });
  });
});
