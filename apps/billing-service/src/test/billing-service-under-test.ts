import {
  Topics,
  conversationKey,
  newId,
  type MessageOutboundData,
  type MessageOutboundEvent,
  type MessageStatusData,
  type MessageStatusEvent,
  type OutboundStatus,
  type TemplateCategory,
  type TemplateStatusData,
  type WalletRecord,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { pollUntil, startServiceUnderTest, type ServiceUnderTest } from '@parley/testing';
import { billingServiceModule } from '../app.module';
import { BillingServiceConfig } from '../config/billing-service.config';
import { billingServiceDatabase } from '../database/billing-service.database';
import { WalletsService } from '../wallet/wallets.service';

export const CUSTOMER = '+4915112345678';

/** What a spec checks of the ledger: the cached balance against the sum of the wallet's entries. */
export interface LedgerTotals {
  balance: string;
  held: string;
  wallet_entries: string;
  holds_entries: string;
  unbalanced_transactions: number;
}

/** billing-service under test (libs/testing's harness), with helpers the specs share. */
export interface BillingServiceUnderTest extends ServiceUnderTest<BillingServiceConfig> {
  /** Publishes a `message.outbound` as the gateway would (a text message unless `content` says otherwise). */
  accept(tenantId: string, overrides?: Partial<MessageOutboundData>): Promise<MessageOutboundEvent>;
  /** Publishes a `message.status` for a message, as messaging-service would. */
  status(tenantId: string, messageId: string, status: OutboundStatus): Promise<MessageStatusEvent>;
  /** Publishes a `template.status` approving a template of a category. */
  approveTemplate(tenantId: string, name: string, language: string, category: TemplateCategory): Promise<void>;
  /** Publishes an event again, byte for byte (a redelivery). */
  republish(event: AnyEnvelope): Promise<void>;
  wallet(tenantId: string): Promise<WalletRecord>;
  topUp(tenantId: string, amount: string): Promise<void>;
  /** Waits until the wallet satisfies `done`, and returns it. */
  walletReaching(tenantId: string, description: string, done: (wallet: WalletRecord) => boolean): Promise<WalletRecord>;
  /** Waits until the message's charge row is in `state`. */
  chargeReaching(messageId: string, state: string): Promise<void>;
  ledgerTotals(tenantId: string): Promise<LedgerTotals>;
}

/** Whatever envelope the publisher takes (any topic, any envelope version). */
type AnyEnvelope = Parameters<EventPublisher['publishEvent']>[0];

const keyOf = (event: AnyEnvelope): string => {
  const data = event.data as { to?: string };
  return conversationKey(event.tenant_id ?? '', data.to ?? event.id);
};

/** Boots the service the way integration specs need it: quiet logs; `env` overrides any setting. */
export async function startBillingService(label: string, env: Record<string, string> = {}): Promise<BillingServiceUnderTest> {
  const service = await startServiceUnderTest(
    label,
    { database: billingServiceDatabase, Config: BillingServiceConfig, module: billingServiceModule },
    { NODE_ENV: 'development', LOG_LEVEL: 'error', BILLING_FREE_ALLOWANCE: '0', BILLING_VIEW_PREFIX: `test:${newId('evt')}:`, ...env },
  );
  const publish = (event: AnyEnvelope) => service.kafka.publisher.publishEvent(event, keyOf(event), undefined, { timeoutMs: 10_000 });
  const wallet = (tenantId: string) => service.kafka.rpc.request('billing.wallet', { tenant_id: tenantId });
  return {
    ...service,
    async accept(tenantId, overrides = {}) {
      const data: MessageOutboundData = {
        message_id: newId('msg'),
        channel: 'whatsapp',
        from: null,
        to: CUSTOMER,
        content: { type: 'text', text: 'Your order is ready.' },
        origin: 'api',
        accepted_at: new Date().toISOString(),
        ...overrides,
      };
      const event = EventPublisher.envelope(Topics.MessageOutbound, tenantId, data);
      await publish(event);
      return event;
    },
    async status(tenantId, messageId, status) {
      const data: MessageStatusData = { event: 'message.status', channel: 'whatsapp', tenant_id: tenantId, message_id: messageId, status, to: CUSTOMER, at: new Date().toISOString() };
      const event = EventPublisher.envelope(Topics.MessageStatus, tenantId, data);
      await publish(event);
      return event;
    },
    async approveTemplate(tenantId, name, language, category) {
      const now = new Date().toISOString();
      const data: TemplateStatusData = {
        event: 'template.status',
        tenant_id: tenantId,
        channel: 'whatsapp',
        template: { id: newId('tpl'), channel_id: newId('chn'), name, language, category, components: [], status: 'APPROVED', reason: null, created_at: now, updated_at: now },
        at: now,
      };
      await service.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.TemplateStatus, tenantId, data), `${tenantId}:${data.template.id}`, undefined, {
        timeoutMs: 10_000,
      });
    },
    republish: publish,
    wallet,
    async topUp(tenantId, amount) {
      await service.app.get(WalletsService).topUp(tenantId, amount, newId('evt'));
    },
    walletReaching: (tenantId, description, done) =>
      pollUntil(
        async () => {
          const current = await wallet(tenantId);
          return done(current) ? current : undefined;
        },
        { description, timeoutMs: 20_000 },
      ),
    chargeReaching: async (messageId, state) => {
      await pollUntil(
        async () => {
          const [row] = (await service.sql.query(`SELECT state FROM charges WHERE message_id = $1`, [messageId])) as { state: string }[];
          return row?.state === state;
        },
        { description: `charge of ${messageId} to be ${state}`, timeoutMs: 20_000 },
      );
    },
    async ledgerTotals(tenantId) {
      const [row] = (await service.sql.query(
        `SELECT w.balance::text, w.held::text,
                (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE tenant_id = $1 AND account = 'wallet')::numeric(20, 6)::text AS wallet_entries,
                (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE tenant_id = $1 AND account = 'holds')::numeric(20, 6)::text AS holds_entries,
                (SELECT count(*) FROM (SELECT transaction_id FROM ledger_entries WHERE tenant_id = $1 GROUP BY transaction_id HAVING sum(amount) <> 0) u)::int
                  AS unbalanced_transactions
           FROM wallets w WHERE w.tenant_id = $1`,
        [tenantId],
      )) as LedgerTotals[];
      return row;
    },
  };
}
