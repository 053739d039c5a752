import { Headers, type EventEnvelope, type MessageStatusData } from '@parley/contracts';
import type { EventPublisher } from '@parley/kafka';
import { withRollback } from '@parley/testing';
import type { EntityManager } from 'typeorm';
import type { MessageEntity } from './message.entity';
import { messageFromRow, type MessageRow } from './message-row';
import { MessageStatusService, type ProviderStatus } from './message-status.service';
import type { AnnouncedMark, MessageStatusStore, ProviderKey, StatusWrite } from './message-status.store';
import type { IncomingStatus } from './status-machine';

/** MessageStatusStore's contract in memory; its transaction rolls back on a throw (its SQL runs in the integration specs). */
class InMemoryMessages implements Pick<MessageStatusStore, 'transaction' | 'lockOutbound' | 'save' | 'lockByProviderIds' | 'writeStatuses' | 'markAnnounced' | 'findByProviderId'> {
  readonly rows = new Map<string, MessageRow>();
  transactions = 0;
  statusWrites = 0;
  private readonly tx = {} as EntityManager;

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    this.transactions++;
    return withRollback(this.rows, () => work(this.tx));
  }

  async lockOutbound(tenantId: string, messageId: string): Promise<MessageEntity | null> {
    const row = this.rows.get(messageId);
    return row && row.tenant_id === tenantId && row.direction === 'outbound' ? messageFromRow(structuredClone(row)) : null;
  }

  async save(tenantId: string, message: MessageEntity): Promise<MessageEntity> {
    const row = this.rows.get(message.id)!;
    if (row.tenant_id !== tenantId) throw new Error('another tenant');
    Object.assign(row, { status: message.status, status_history: structuredClone(message.statusHistory), error: message.error, announced_statuses: message.announcedStatuses });
    return message;
  }

  async lockByProviderIds(keys: readonly ProviderKey[]): Promise<MessageRow[]> {
    return [...this.rows.values()]
      .filter((r) => r.direction === 'outbound' && keys.some((k) => k.tenantId === r.tenant_id && k.channelId === r.channel_id && k.providerMessageId === r.provider_message_id))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((r) => structuredClone(r));
  }

  async writeStatuses(writes: readonly StatusWrite[]): Promise<void> {
    this.statusWrites++;
    for (const w of writes) {
      const row = this.rows.get(w.id)!;
      Object.assign(row, { status: w.status, status_history: structuredClone(w.status_history), error: w.error, announced_statuses: Math.max(row.announced_statuses, w.announced) });
    }
  }

  async markAnnounced(marks: readonly AnnouncedMark[]): Promise<void> {
    for (const m of marks) {
      const row = this.rows.get(m.id);
      if (row) row.announced_statuses = Math.max(row.announced_statuses, m.announced);
    }
  }

  async findByProviderId(tenantId: string, channelId: string, providerMessageId: string): Promise<MessageEntity | null> {
    const row = [...this.rows.values()].find((r) => r.tenant_id === tenantId && r.channel_id === channelId && r.provider_message_id === providerMessageId && r.direction === 'outbound');
    return row ? messageFromRow(structuredClone(row)) : null;
  }

  /** An outbound message as a send leaves it: `sent`, announced once the provider took it (a wamid). */
  seed(id: string, tenantId: string, wamid: string | null, fromCampaign: boolean | null = false): MessageRow {
    const row: MessageRow = {
      ...{ seq: '1', direction: 'outbound', channel: 'whatsapp', subject: null, html: null, from: '+14155550100', type: 'text', body: 'Hello', template: null, error: null },
      ...{ send_attempts: 1, published: false, created_at: new Date(), updated_at: new Date() },
      id,
      tenant_id: tenantId,
      channel_id: 'chn_1',
      to: '+15550001111',
      status: 'sent',
      status_history: [{ status: 'sent', at: at(0) }],
      provider_message_id: wamid,
      announced_statuses: wamid ? 1 : 0,
      from_campaign: fromCampaign,
    };
    this.rows.set(id, row);
    return row;
  }
}

interface Published {
  key: string;
  value: EventEnvelope<'message.status', MessageStatusData>;
  headers: Record<string, string | undefined>;
}

function setup() {
  const store = new InMemoryMessages();
  const published: Published[] = [];
  const publish = jest.fn(async (records: Published[]) => void published.push(...records));
  const service = new MessageStatusService(store as unknown as MessageStatusStore, { publish } as unknown as EventPublisher);
  return { store, service, published, publish };
}

const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, n)).toISOString();
const status = (wamid: string, s: IncomingStatus['status'], n: number, requestId?: string, tenantId = 'ten_a'): ProviderStatus => ({
  tenantId,
  channelId: 'chn_1',
  providerMessageId: wamid,
  incoming: { status: s, at: at(n), ...(s === 'failed' ? { error: { code: '131026', title: 'Message undeliverable' } } : {}) },
  requestId,
});
const statusesOf = (published: Published[], messageId: string) => published.filter((p) => p.value.data.message_id === messageId).map((p) => p.value.data.status);

describe('MessageStatusService', () => {
  it('applies a batch in arrival order without moving a message back: read, then a late delivered, leaves it read with delivered filled in before it', async () => {
    const { service, store, published } = setup();
    store.seed('msg_1', 'ten_a', 'wamid.1');
    store.seed('msg_2', 'ten_a', 'wamid.2');
    const unknown = await service.applyByProviderIds([status('wamid.1', 'read', 2), status('wamid.2', 'delivered', 3), status('wamid.1', 'delivered', 4), status('wamid.1', 'sent', 5)]);
    expect(unknown).toEqual([]);
    expect(store.rows.get('msg_1')).toMatchObject({
      status: 'read',
      status_history: [{ status: 'sent', at: at(0) }, { status: 'delivered', at: at(2) }, { status: 'read', at: at(2) }],
      announced_statuses: 3,
    });
    expect(store.rows.get('msg_2')).toMatchObject({ status: 'delivered', announced_statuses: 2 });
    expect(statusesOf(published, 'msg_1')).toEqual(['delivered', 'read']);
    expect(statusesOf(published, 'msg_2')).toEqual(['delivered']);
    // one transaction and one write for the whole batch, whatever its messages
    expect([store.transactions, store.statusWrites]).toEqual([1, 1]);
  });

  it("answers, in arrival order, the statuses naming no message of that tenant's channel (another tenant's wamid included), changing nothing", async () => {
    const { service, store, published } = setup();
    store.seed('msg_1', 'ten_a', 'wamid.1');
    const foreign = status('wamid.1', 'read', 1, undefined, 'ten_b');
    const early = status('wamid.9', 'delivered', 2);
    const known = status('wamid.1', 'delivered', 3);
    const later = status('wamid.9', 'read', 4);
    expect(await service.applyByProviderIds([early, foreign, known, later])).toEqual([early, foreign, later]);
    expect(store.rows.get('msg_1')?.status).toBe('delivered');
    expect(published.map((p) => p.value.tenant_id)).toEqual(['ten_a']);
  });

  it('announces each added entry with the request id of the status that added it, keyed by the conversation', async () => {
    const { service, store, published } = setup();
    store.seed('msg_1', 'ten_a', 'wamid.1');
    await service.applyByProviderIds([status('wamid.1', 'delivered', 1, 'req_1'), status('wamid.1', 'read', 2, 'req_2')]);
    expect(published.map((p) => [p.key, p.value.data.status, p.headers[Headers.RequestId]])).toEqual([
      ['ten_a:+15550001111', 'delivered', 'req_1'],
      ['ten_a:+15550001111', 'read', 'req_2'],
    ]);
  });

  it("says in each status's campaign header whether its message is a campaign's, and nothing for a message from before that was recorded", async () => {
    const { service, store, published } = setup();
    store.seed('msg_1', 'ten_a', 'wamid.1', true);
    store.seed('msg_2', 'ten_a', 'wamid.2', false);
    store.seed('msg_3', 'ten_a', 'wamid.3', null);
    await service.applyByProviderIds([status('wamid.1', 'delivered', 1), status('wamid.2', 'delivered', 2), status('wamid.3', 'delivered', 3)]);
    expect(published.map((p) => [p.value.data.message_id, p.headers[Headers.Campaign]])).toEqual([
      ['msg_1', 'yes'],
      ['msg_2', 'no'],
      ['msg_3', undefined],
    ]);
  });

  it('writes nothing when the announcement is refused, and a replay then announces the same events once, and after that nothing', async () => {
    const { service, store, publish, published } = setup();
    store.seed('msg_1', 'ten_a', 'wamid.1');
    const batch = [status('wamid.1', 'delivered', 1)];
    publish.mockRejectedValueOnce(new Error('broker unavailable'));
    await expect(service.applyByProviderIds(batch)).rejects.toThrow('broker unavailable');
    expect(store.rows.get('msg_1')).toMatchObject({ status: 'sent', announced_statuses: 1 });
    const refusedIds = (publish.mock.calls[0][0] as Published[]).map((p) => p.value.id);

    await service.applyByProviderIds(batch);
    expect(store.rows.get('msg_1')).toMatchObject({ status: 'delivered', announced_statuses: 2 });
    expect(published.map((p) => p.value.id)).toEqual(refusedIds); // the same event: consumers see it once

    const writes = store.statusWrites;
    await service.applyByProviderIds(batch);
    expect(published).toHaveLength(1);
    expect(store.statusWrites).toBe(writes);
  });

  it('never announces the provisional sent of a message the provider has not taken, but announces its failure', async () => {
    const { service, store, published } = setup();
    store.seed('msg_1', 'ten_a', null);
    await service.apply('ten_a', 'msg_1', { status: 'failed', at: at(1), error: { code: 'no_channel', title: 'No channel' } });
    expect(store.rows.get('msg_1')).toMatchObject({ status: 'failed', error: { code: 'no_channel' }, announced_statuses: 2 });
    expect(statusesOf(published, 'msg_1')).toEqual(['failed']);
  });

  it("leaves another tenant's message alone: apply answers null and announces nothing", async () => {
    const { service, store, published } = setup();
    store.seed('msg_1', 'ten_a', 'wamid.1');
    expect(await service.apply('ten_b', 'msg_1', { status: 'delivered', at: at(1) })).toBeNull();
    expect(store.rows.get('msg_1')?.status).toBe('sent');
    expect(published).toEqual([]);
  });
});
