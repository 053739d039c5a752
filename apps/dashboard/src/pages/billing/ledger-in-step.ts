import { useEffect, useState } from 'react';
import { sameAmount } from './money';

/**
 * The wallet's balance and the ledger's first page are two requests, answered in any order: a top-up's webhook can
 * credit the wallet between them, so the page may hold a balance the list it shows does not explain yet (or a list
 * newer than the balance). The balance always equals the newest transaction's `balance_after` (the ledger is the
 * balance, CONTRACT §16), so a disagreement means one of the two is stale: both are loaded again, sooner and then
 * later, until they agree. Meanwhile the table says it is updating; after the last look it says the list may be behind.
 */
const RECHECK_AFTER_MS = [300, 700, 1500, 3000, 5000, 8000];

export type LedgerStep = 'in-step' | 'updating' | 'behind';

/**
 * @param balance the balance the page shows (undefined until the wallet has loaded)
 * @param newestBalanceAfter the newest transaction's balance after it; null for an empty ledger, undefined until loaded
 * @param reload loads both the wallet and the ledger's first page again
 */
export function useLedgerInStep(balance: string | undefined, newestBalanceAfter: string | null | undefined, reload: () => void): LedgerStep {
  const loaded = balance !== undefined && newestBalanceAfter !== undefined;
  const agrees = !loaded || sameAmount(balance, newestBalanceAfter ?? '0');
  const [looks, setLooks] = useState(0);

  useEffect(() => {
    if (agrees) {
      setLooks(0);
      return undefined;
    }
    if (looks >= RECHECK_AFTER_MS.length) return undefined;
    const timer = window.setTimeout(() => {
      setLooks((n) => n + 1);
      reload();
    }, RECHECK_AFTER_MS[looks]);
    return () => window.clearTimeout(timer);
  }, [agrees, looks, reload]);

  if (agrees) return 'in-step';
  return looks >= RECHECK_AFTER_MS.length ? 'behind' : 'updating';
}
