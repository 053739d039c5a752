import { useEffect, useRef, useState } from 'react';
import type { CostEstimateRecord } from '../../api';
import { errorText } from '../../components/problem-text';
import { useApi } from '../../session/session';
import { formatCents, formatMoney } from '../billing/money';

/** Asked once the audience's count has settled: a change of count is not a request of its own each keystroke. */
const DEBOUNCE_MS = 300;

const CATEGORY_NAMES: Record<string, string> = { marketing: 'marketing', utility: 'utility', authentication: 'authentication', service: 'service' };
const count = (n: number) => n.toLocaleString('en-US');

/**
 * What the campaign would cost if it started now, in the wallet's currency to the cent, and what that is based on:
 * recipients × the price of the template's category on the tenant's plan, less what is left of the free allowance
 * (billing-service's estimate, the same one the start checks). Says when the wallet cannot pay for it.
 */
export function CostEstimateLine({ template, recipients }: { template?: { name: string; language: string }; recipients?: number }) {
  const api = useApi();
  const [shown, setShown] = useState<{ key: string; estimate?: CostEstimateRecord; error?: string }>();
  const key = template && recipients !== undefined ? `${template.name}|${template.language}|${recipients}` : '';
  const generation = useRef(0);

  useEffect(() => {
    const mine = ++generation.current;
    if (!key || !template || recipients === undefined) return undefined;
    const timer = window.setTimeout(() => {
      api.estimate(recipients, template).then(
        (estimate) => mine === generation.current && setShown({ key, estimate }),
        (err: unknown) => mine === generation.current && setShown({ key, error: errorText(err) }),
      );
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [api, key, template, recipients]);

  if (!key) return null;
  let text: string;
  let warn = false;
  if (shown?.key !== key) text = 'Estimating the cost…';
  else if (shown.error) text = `The cost could not be estimated: ${shown.error}`;
  else {
    const e = shown.estimate!;
    const free = e.quantity - e.billable;
    const basis =
      e.billable === 0
        ? `${count(e.quantity)} ${e.quantity === 1 ? 'message' : 'messages'}, all within your free allowance this month`
        : `${count(e.billable)} paid ${e.billable === 1 ? 'message' : 'messages'} × ${formatMoney(e.unit_price, e.currency)} (${CATEGORY_NAMES[e.category] ?? e.category} template)` +
          (free > 0 ? `; ${count(free)} more within your free allowance this month` : '');
    text = `Estimated cost: ${formatCents(e.amount, e.currency)} (${basis}).`;
    if (!e.payable) {
      warn = true;
      text += ` Your balance of ${formatCents(e.balance, e.currency)} does not cover it: top up before you start the campaign, or it will be refused.`;
    }
  }
  return (
    <p className={warn ? 'small notice notice-warning' : 'small'} role="status" aria-live="polite" data-testid="campaign-cost-estimate">
      {text}
    </p>
  );
}
