import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { Topics, type MessageOutboundEvent } from '@parley/contracts';
import { BatchByKey } from '@parley/kafka';
import { GroupCommit } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { InboxService } from './inbox.service';

/**
 * `message.outbound` from the API (gateway, campaigns): what was sent to a customer goes into their thread. Most API
 * sends go to customers with no conversation here (notifications, campaigns): one statement per consumed batch finds
 * the customers that have one, and only their sends go on to InboxService.recordSend.
 */
@Controller()
export class SentMessagesConsumer {
  /** The key groups consumed side by side share one look-up (group commit). */
  private readonly lookups = new GroupCommit<{ tenantId: string; customer: string }, boolean>((pairs) => this.haveConversations(pairs));

  constructor(
    private readonly inbox: InboxService,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  @EventPattern(Topics.MessageOutbound, BatchByKey)
  async onOutbound(@Payload() events: MessageOutboundEvent[]): Promise<void> {
    const sends = events.filter((event) => event.tenant_id && event.data?.to && event.data.content && event.data.origin === 'api');
    const known = await Promise.all(sends.map((event) => this.lookups.add({ tenantId: event.tenant_id!, customer: event.data.to })));
    for (const [i, event] of sends.entries()) if (known[i]) await this.inbox.recordSend(event.tenant_id!, event.data);
  }

  /** Per pair, whether the tenant has any conversation with the customer (recordSend then finds the right one). */
  private async haveConversations(pairs: { tenantId: string; customer: string }[]): Promise<boolean[]> {
    const rows = (await this.db.query(
      `SELECT x.n FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(tenant_id, customer, n)
       WHERE EXISTS (SELECT 1 FROM conversations c WHERE c.tenant_id = x.tenant_id AND c.customer = x.customer)`,
      [pairs.map((p) => p.tenantId), pairs.map((p) => p.customer)],
    )) as { n: string }[];
    const found = new Set(rows.map((r) => Number(r.n) - 1));
    return pairs.map((_, i) => found.has(i));
  }
}
