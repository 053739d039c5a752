import type { PriceRecord, WalletRecord } from '../../api';
import { formatMoney } from './money';
import { DataTable } from '../../components/data-table';

/** Each category a person can recognise: the channel it is sent on, what it is, and what one unit is. */
const CATEGORIES: Record<string, { channel: string; what: string; unit: string }> = {
  service: { channel: 'WhatsApp', what: 'Reply within 24 hours of the customer’s last message', unit: 'message' },
  marketing: { channel: 'WhatsApp', what: 'Marketing template (offers, campaigns)', unit: 'message' },
  utility: { channel: 'WhatsApp', what: 'Utility template (orders, appointments, account updates)', unit: 'message' },
  authentication: { channel: 'WhatsApp', what: 'Authentication template (one-time codes)', unit: 'message' },
  sms: { channel: 'SMS', what: 'Text message', unit: '160-character segment' },
  email: { channel: 'Email', what: 'Email', unit: 'email' },
  voice_minute: { channel: 'Voice', what: 'Call', unit: 'minute' },
  llm_token: { channel: 'AI agent', what: 'Answer by the platform’s LLM', unit: 'token' },
};
const ORDER = Object.keys(CATEGORIES);

/**
 * The price book as it applies to this tenant: its plan's line per channel and category, in the wallet's currency (a
 * price in another currency is never charged to it). Categories without a price are not listed.
 */
export function PriceList({ prices, wallet }: { prices: PriceRecord[]; wallet: WalletRecord }) {
  const mine = prices
    .filter((p) => p.plan === wallet.plan && p.currency === wallet.currency && CATEGORIES[p.category])
    .sort((a, b) => ORDER.indexOf(a.category) - ORDER.indexOf(b.category));
  if (!mine.length) return <p className="muted">No prices are set for the {wallet.plan} plan in {wallet.currency}: nothing is charged.</p>;
  return (
    <div className="table-wrap">
      <DataTable
        testId="price-list"
        captionVisible
        caption={`Prices on the ${wallet.plan} plan, in ${wallet.currency}`}
        rows={mine}
        rowKey={(p) => p.category}
        columns={[
          { header: 'Channel', cell: (p) => CATEGORIES[p.category].channel },
          { header: 'What is sent', cell: (p) => CATEGORIES[p.category].what },
          { header: 'Price', cell: (p) => `${formatMoney(p.unit_price, p.currency)} per ${CATEGORIES[p.category].unit}` },
        ]}
      />
    </div>
  );
}
