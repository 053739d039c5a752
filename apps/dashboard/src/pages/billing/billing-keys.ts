/** Query keys of what several views show of billing: the low-balance banner, Billing and Usage show one wallet. */
export const WALLET_KEY = ['billing', 'wallet'] as const;
export const MONTH_USAGE_KEY = ['billing', 'month-usage'] as const;
