import type { MonthUsageRecord, WalletRecord } from '../../api';
import { formatCents, isZero } from './money';

const count = (n: number) => n.toLocaleString('en-US');
/** The day the allowance starts again ("1 January"), in UTC as the month is counted. */
const restartDay = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', timeZone: 'UTC' });

/**
 * What happens to a paid message at this balance, said before it happens: refused when the wallet cannot cover it
 * (BILLING_ENFORCED, the default), or sent anyway where an operator turned that off.
 */
export function paidMessagesAt(wallet: WalletRecord): string {
  const balance = formatCents(wallet.balance, wallet.currency);
  if (wallet.enforced === false) return `${balance}: paid messages are still sent when it cannot cover them`;
  return isZero(wallet.balance) ? `${balance}: paid messages will be refused` : `${balance}: paid messages are refused once it runs out`;
}

/**
 * The month's free allowance and what comes after it, in one sentence: "812 of 1,000 free messages used this month;
 * after that each message is paid from your wallet ($0.00: paid messages will be refused)."
 */
export function allowanceSentence(month: MonthUsageRecord, wallet: WalletRecord): string {
  const atBalance = paidMessagesAt(wallet);
  if (month.free_allowance === null) {
    return `On the ${month.plan} plan every message is paid from your wallet (${atBalance}).`;
  }
  if (month.free_left === 0) {
    return `All ${count(month.free_allowance)} free messages of this month are used (they start again on ${restartDay(month.period_end)}); each message is now paid from your wallet (${atBalance}).`;
  }
  return `${count(Math.min(month.messages, month.free_allowance))} of ${count(month.free_allowance)} free messages used this month; after that each message is paid from your wallet (${atBalance}).`;
}
