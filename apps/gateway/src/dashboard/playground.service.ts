import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem, validationProblem, type ChannelRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { GatewayConfig } from '../config/gateway.config';
import { DashboardConfig } from './dashboard.config';
import type { PlaygroundInboundBody } from './playground.dto';

/** A message the sandbox delivered to a customer's phone (the sandbox's `/_sandbox/messages` shape). */
export interface PlaygroundMessage {
  id: string;
  phone_number_id: string;
  to: string;
  type: string;
  text?: { body: string };
  timestamp: string;
}

/** The sandbox's answer to a customer writing in: `queued` when the gateway did not take it yet (the sandbox retries it). */
export interface PlaygroundWriteAnswer {
  id: string;
  queued?: true;
}

const SANDBOX_TIMEOUT_MS = 15_000;
const digits = (phone: string) => phone.replace(/\D/g, '');

/**
 * The dashboard's playground (development only): the browser cannot reach the WhatsApp sandbox (another origin), so
 * the gateway relays the two sandbox calls it needs, each limited to the caller's own numbers.
 */
@Injectable()
export class PlaygroundService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly sandboxConfig: DashboardConfig,
    private readonly rpc: RpcClient,
  ) {}

  /**
   * Writes `text` (or sends a photo) to the tenant's number `to` as the customer `from`. The sandbox answers `{id}` once the gateway took
   * the message, or `{id, queued: true}` (its 202) when the gateway did not: it keeps delivering it, as WhatsApp does.
   */
  async customerWrites(tenantId: string, body: PlaygroundInboundBody, requestId: string): Promise<PlaygroundWriteAnswer> {
    this.ensureEnabled();
    const channels = await this.channels(tenantId, requestId);
    if (!channels.some((c) => digits(c.phone_number) === digits(body.to))) {
      throw new ProblemException(validationProblem([{ field: 'to', message: 'to must be one of your connected WhatsApp numbers' }]));
    }
    return this.sandbox<PlaygroundWriteAnswer>('/_sandbox/inbound', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  }

  /** What the tenant's numbers delivered to `customer`, oldest first. */
  async deliveredTo(tenantId: string, customer: string, requestId: string): Promise<{ data: PlaygroundMessage[] }> {
    this.ensureEnabled();
    const ours = new Set((await this.channels(tenantId, requestId)).map((c) => c.phone_number_id).filter((id) => id !== null));
    const { data } = await this.sandbox<{ data: PlaygroundMessage[] }>(`/_sandbox/messages?to=${encodeURIComponent(customer)}`, { method: 'GET' });
    return { data: data.filter((m) => ours.has(m.phone_number_id)) };
  }

  private ensureEnabled(): void {
    if (this.config.isProduction || !this.config.SANDBOX_ENABLED) {
      throw new ProblemException(problem(404, ProblemTypes.notFound, 'Not Found', 'The playground exists only in development, with the WhatsApp sandbox enabled.'));
    }
  }

  private async channels(tenantId: string, requestId: string): Promise<ChannelRecord[]> {
    return (await this.rpc.request('channels.list', { tenant_id: tenantId, limit: 100, cursor: null }, { requestId })).data;
  }

  private async sandbox<T>(path: string, init: RequestInit): Promise<T> {
    const unavailable = (why: string) =>
      new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', `The WhatsApp sandbox did not answer (${why}).`));
    let res: Response;
    try {
      res = await fetch(`${this.sandboxConfig.SANDBOX_URL}${path}`, { ...init, signal: AbortSignal.timeout(SANDBOX_TIMEOUT_MS) });
    } catch (err) {
      throw unavailable(err instanceof Error ? err.message : String(err));
    }
    if (!res.ok) throw unavailable(`status ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as T;
  }
}
