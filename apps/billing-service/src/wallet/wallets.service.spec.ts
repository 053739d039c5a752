import { ProblemTypes, type WalletLowBalanceData } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { walletsInMemory } from '../test/in-memory-wallets';

const problemOf = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  return err instanceof ProblemException ? err.problem : err;
};

const lowBalanceWarnings = (events: { type: string; data: unknown }[]) =>
  events.filter((e) => e.type === 'wallet.low_balance').map((e) => (e.data as WalletLowBalanceData).balance);

describe('WalletsService', () => {
  it('refuses a zero adjustment with 400 naming amount, and posts nothing', async () => {
    const { wallets, store } = walletsInMemory();
    expect(await problemOf(wallets.adjust('ten_a', { amount: '-0.00', reference: 'ticket-1', description: 'nothing' }))).toMatchObject({
      status: 400,
      errors: [{ field: 'amount' }],
    });
    expect(store.transactionRows).toEqual([]);
  });

  it('refuses a debit the balance cannot cover with 409 insufficient-funds, moving nothing', async () => {
    const { wallets, store } = walletsInMemory();
    await wallets.topUp('ten_a', '3', 'pay_1');
    expect(await problemOf(wallets.adjust('ten_a', { amount: '-3.000001', reference: 'ticket-1', description: 'too much' }))).toMatchObject({
      status: 409,
      type: ProblemTypes.insufficientFunds,
    });
    expect(await wallets.get('ten_a')).toMatchObject({ balance: '3.000000' });
    expect(store.transactionRows.map((t) => t.kind)).toEqual(['top_up']);
    // exactly the balance is covered
    expect(await wallets.adjust('ten_a', { amount: '-3', reference: 'ticket-2', description: 'all of it' })).toMatchObject({ balance_after: '0.000000', balance_change: '-3.000000' });
  });

  it("takes an adjustment's reference once: the same reference again is a 409 conflict and moves nothing", async () => {
    const { wallets, store } = walletsInMemory();
    const first = await wallets.adjust('ten_a', { amount: '2.50', reference: 'ticket-7', description: 'goodwill' });
    expect(first).toMatchObject({ type: 'adjustment', amount: '2.500000', balance_after: '2.500000', cause_id: 'ticket-7' });
    expect(await problemOf(wallets.adjust('ten_a', { amount: '2.50', reference: 'ticket-7', description: 'goodwill' }))).toMatchObject({
      status: 409,
      type: ProblemTypes.conflict,
    });
    expect(await wallets.get('ten_a')).toMatchObject({ balance: '2.500000' });
    // another tenant's reference is its own
    await wallets.adjust('ten_b', { amount: '1', reference: 'ticket-7', description: 'goodwill' });
    expect(store.ledgerBalance('ten_a')).toBe('2.500000');
    expect(store.ledgerBalance('ten_b')).toBe('1.000000');
  });

  it('credits a payment once however often it is reported, and pushes the view each time', async () => {
    const { wallets, view } = walletsInMemory();
    expect(await wallets.topUp('ten_a', '10', 'pay_1')).toMatchObject({ posted: true });
    expect(await wallets.topUp('ten_a', '10', 'pay_1')).toEqual({ posted: false, reason: 'duplicate' });
    expect(await wallets.get('ten_a')).toMatchObject({ balance: '10.000000' });
    expect(view.push).toHaveBeenCalledTimes(2);
  });

  it('warns once per fall below the low-balance threshold, and again only after the balance got back to it', async () => {
    const { wallets, store } = walletsInMemory(); // threshold 5.00
    await wallets.topUp('ten_a', '10', 'pay_1');
    await wallets.adjust('ten_a', { amount: '-6', reference: 'd1', description: 'down to 4' });
    await wallets.adjust('ten_a', { amount: '-1', reference: 'd2', description: 'down to 3' });
    expect(lowBalanceWarnings(store.events)).toEqual(['4.000000']);
    await wallets.topUp('ten_a', '2', 'pay_2'); // 5: back at the threshold
    await wallets.adjust('ten_a', { amount: '-0.5', reference: 'd3', description: 'down to 4.5' });
    expect(lowBalanceWarnings(store.events)).toEqual(['4.000000', '4.500000']);
  });

  it("a batch warns as postings one at a time would: once per fall, with the balance that posting left, and records the wallet's watch", async () => {
    const { wallets, store } = walletsInMemory(); // threshold 5.00
    await wallets.topUp('ten_a', '10', 'pay_1');
    await wallets.transaction(async (tx) => {
      const batch = wallets.batch(await wallets.lockMany(tx, ['ten_a']));
      for (const [cause, amount] of [['m1', '3'], ['m2', '3'], ['m3', '1']]) {
        batch.post({ tenantId: 'ten_a', type: 'hold', amount, currency: 'USD', causeId: cause });
      }
      await wallets.writeAndWatch(tx, batch);
    });
    expect(lowBalanceWarnings(store.events)).toEqual(['4.000000']);
    expect(store.wallets.get('ten_a')).toMatchObject({ balance: '3.000000', held: '7.000000', below_threshold: true });

    await wallets.transaction(async (tx) => {
      const batch = wallets.batch(await wallets.lockMany(tx, ['ten_a']));
      batch.post({ tenantId: 'ten_a', type: 'release', amount: '3', currency: 'USD', causeId: 'm1' }); // 6: re-armed
      batch.post({ tenantId: 'ten_a', type: 'hold', amount: '2', currency: 'USD', causeId: 'm4' }); // 4: below again
      batch.post({ tenantId: 'ten_a', type: 'hold', amount: '9', currency: 'USD', causeId: 'm5' }); // not covered: refused
      await wallets.writeAndWatch(tx, batch);
    });
    expect(lowBalanceWarnings(store.events)).toEqual(['4.000000', '4.000000']);
    expect(store.wallets.get('ten_a')).toMatchObject({ balance: '4.000000', below_threshold: true });
    expect(store.ledgerBalance('ten_a')).toBe('4.000000');
  });

  it('fails a batch whose posting the ledger already has, leaving nothing of it behind', async () => {
    const { wallets, store } = walletsInMemory();
    await wallets.topUp('ten_a', '10', 'pay_1');
    const write = wallets.transaction(async (tx) => {
      const batch = wallets.batch(await wallets.lockMany(tx, ['ten_a']));
      batch.post({ tenantId: 'ten_a', type: 'hold', amount: '1', currency: 'USD', causeId: 'm1' });
      batch.post({ tenantId: 'ten_a', type: 'top_up', amount: '1', currency: 'USD', causeId: 'pay_1' });
      await wallets.writeAndWatch(tx, batch);
    });
    await expect(write).rejects.toThrow('already posted: top_up pay_1');
    expect(store.wallets.get('ten_a')).toMatchObject({ balance: '10.000000', held: '0.000000' });
    expect(store.transactionRows.map((t) => t.cause_id)).toEqual(['pay_1']);
  });

  it('answers a wallet not used yet as it will be, without creating it', async () => {
    const { wallets, store } = walletsInMemory();
    expect(await wallets.get('ten_new')).toEqual({ balance: '0.000000', held: '0.000000', currency: 'USD', low_balance_threshold: '5.000000', plan: 'free' });
    expect(store.wallets.size).toBe(0);
  });

  it('refuses an unknown plan with 400 naming plan, and leaves the wallet as it was', async () => {
    const { wallets, store } = walletsInMemory();
    await wallets.setPlan('ten_a', 'pro');
    expect(await problemOf(wallets.setPlan('ten_a', 'gold' as never))).toMatchObject({ status: 400, errors: [{ field: 'plan' }] });
    expect(store.wallets.get('ten_a')?.plan).toBe('pro');
  });
});
