import { Injectable } from '@nestjs/common';
import {
  CreateWebhookBody,
  UpdateWebhookBody,
  WEBHOOK_EVENT_TYPES,
  hasPrefix,
  newId,
  notFoundProblem,
  validationProblem,
  type Page,
  type WebhookEndpointRecord,
} from '@parley/contracts';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { WebhookServiceConfig } from '../config/webhook-service.config';
import { generateSecret } from '../deliveries/signing';
import { urlViolation } from '@parley/service-kit';
import type { EndpointEntity } from './endpoint.entity';
import { toEndpointRecord } from './endpoints.mapper';
import { EndpointsStore } from './endpoints.store';

const MAX_PAGE = 100;
/** After a rotation the old secret still signs this long, so receivers can switch over (CONTRACT.md §5). */
const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/** Owns tenants' webhook endpoints (CONTRACT.md §5); every read and write is scoped by tenant. */
@Injectable()
export class EndpointsService {
  constructor(
    private readonly endpoints: EndpointsStore,
    private readonly config: WebhookServiceConfig,
    private readonly cursors: ListCursors,
  ) {}

  /** Creates an endpoint; the answer is the one place besides `getSecret` that shows the secret. */
  async create(tenantId: string, rawBody: unknown): Promise<WebhookEndpointRecord & { secret: string }> {
    const body = await validateDto(CreateWebhookBody, rawBody);
    await this.assertUrlAllowed(body.url);
    const entity = await this.endpoints.insert(tenantId, {
      id: newId('whk'),
      url: body.url,
      events: body.events ?? [...WEBHOOK_EVENT_TYPES],
      description: body.description ?? null,
      enabled: body.enabled ?? true,
      ordered: body.ordered ?? false,
      secret: generateSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
      disabledReason: null,
      failingSince: null,
    });
    return { ...toEndpointRecord(entity), secret: entity.secret };
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<WebhookEndpointRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, 'webhooks');
    const rows = await this.endpoints.list(tenantId, take + 1, cursors.after(cursor));
    return { data: rows.slice(0, take).map(toEndpointRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  async get(tenantId: string, id: string): Promise<WebhookEndpointRecord> {
    return toEndpointRecord(await this.find(tenantId, id));
  }

  /** PATCH semantics: only the fields given change. Re-enabling clears why the service had disabled it. */
  async update(tenantId: string, id: string, rawBody: unknown): Promise<WebhookEndpointRecord> {
    const body = await validateDto(UpdateWebhookBody, rawBody);
    const entity = await this.find(tenantId, id);
    if (body.url !== undefined) {
      await this.assertUrlAllowed(body.url);
      entity.url = body.url;
    }
    if (body.events !== undefined) entity.events = body.events;
    if (body.description !== undefined) entity.description = body.description;
    if (body.ordered !== undefined) entity.ordered = body.ordered;
    if (body.enabled !== undefined) {
      if (body.enabled && !entity.enabled) {
        entity.disabledReason = null;
        entity.failingSince = null;
      }
      entity.enabled = body.enabled;
    }
    return toEndpointRecord(await this.endpoints.save(tenantId, entity));
  }

  /** Deletes the endpoint with its deliveries (cascade). */
  async delete(tenantId: string, id: string): Promise<void> {
    if (!hasPrefix(id, 'whk')) throw new ProblemException(notFoundProblem(`Webhook "${id}"`));
    if (!(await this.endpoints.delete(tenantId, id))) throw new ProblemException(notFoundProblem(`Webhook "${id}"`));
  }

  async getSecret(tenantId: string, id: string): Promise<{ secret: string }> {
    return { secret: (await this.find(tenantId, id)).secret };
  }

  /** A new secret; the current one becomes the previous and keeps signing beside it for 24 h. */
  async rotateSecret(tenantId: string, id: string): Promise<{ secret: string }> {
    const entity = await this.find(tenantId, id);
    entity.previousSecret = entity.secret;
    entity.previousSecretExpiresAt = new Date(Date.now() + PREVIOUS_SECRET_VALID_MS);
    entity.secret = generateSecret();
    await this.endpoints.save(tenantId, entity);
    return { secret: entity.secret };
  }

  private async find(tenantId: string, id: string): Promise<EndpointEntity> {
    const entity = hasPrefix(id, 'whk') ? await this.endpoints.find(tenantId, id) : null;
    if (!entity) throw new ProblemException(notFoundProblem(`Webhook "${id}"`));
    return entity;
  }

  private async assertUrlAllowed(url: string): Promise<void> {
    const violation = await urlViolation(url, this.config.isProduction);
    if (violation) throw new ProblemException(validationProblem([{ field: 'url', message: violation }]));
  }
}
