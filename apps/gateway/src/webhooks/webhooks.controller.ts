import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateWebhookBody,
  ReplayWebhookBody,
  UpdateWebhookBody,
  type CreatedWebhookRecord,
  type DeliveryRetryAccepted,
  type Page,
  type WebhookDeliveryDetail,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookReplayAccepted,
  type WebhookSecretRecord,
  type WebhookTestAccepted,
} from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';

import { DeliveryListQueryDto } from './delivery-list-query.dto';
import { ApiRoute } from '../openapi/api-route.decorator';
import { Requires } from '../identity/auth/permissions';

const WebhookId = new PrefixedIdPipe('whk', 'Webhook endpoint');
const DeliveryId = new PrefixedIdPipe('dlv', 'Delivery');

/** Tenant webhook settings (CONTRACT.md §5), owned by webhook-service. */
@Controller('api/v1/webhooks')
@Requires('webhooks.manage')
export class WebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({ summary: 'Create a webhook endpoint', access: 'tenant', body: CreateWebhookBody, success: { status: 201, description: 'Created; the signing secret is included.', schema: 'CreatedWebhook' } })
  @Post()
  @HttpCode(201)
  create(@Tenant() tenantId: string, @Body() body: CreateWebhookBody, @RequestId() requestId: string): Promise<CreatedWebhookRecord> {
    return this.rpc.request('webhooks.create', { tenant_id: tenantId, body }, { requestId });
  }

  @ApiRoute({ summary: 'List webhook endpoints', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of endpoints.', schema: 'WebhookPage' } })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<WebhookEndpointRecord>> {
    return this.rpc.request('webhooks.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({ summary: 'Get a webhook endpoint', access: 'tenant', success: { status: 200, description: 'The endpoint.', schema: 'Webhook' }, errors: [404] })
  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<WebhookEndpointRecord> {
    return this.rpc.request('webhooks.get', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({ summary: 'Update a webhook endpoint', access: 'tenant', body: UpdateWebhookBody, success: { status: 200, description: 'The updated endpoint.', schema: 'Webhook' }, errors: [404] })
  @Patch(':id')
  update(
    @Tenant() tenantId: string,
    @Param('id', WebhookId) id: string,
    @Body() body: UpdateWebhookBody,
    @RequestId() requestId: string,
  ): Promise<WebhookEndpointRecord> {
    return this.rpc.request('webhooks.update', { tenant_id: tenantId, id, body }, { requestId });
  }

  @ApiRoute({ summary: 'Delete a webhook endpoint', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [404] })
  @Delete(':id')
  @HttpCode(204)
  async delete(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('webhooks.delete', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({ summary: 'Read the endpoint’s signing secret', access: 'tenant', success: { status: 200, description: 'The current secret.', schema: 'WebhookSecret' }, errors: [404] })
  @Get(':id/secret')
  secret(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<WebhookSecretRecord> {
    return this.rpc.request('webhooks.get-secret', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({ summary: 'Rotate the signing secret (the old one stays valid 24 h)', access: 'tenant', success: { status: 200, description: 'The new secret.', schema: 'WebhookSecret' }, errors: [404] })
  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<WebhookSecretRecord> {
    return this.rpc.request('webhooks.rotate-secret', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({ summary: 'Send a webhook.test event to this endpoint', access: 'tenant', success: { status: 202, description: 'Queued.', schema: 'TestEventAccepted' }, errors: [404] })
  @Post(':id/test')
  @HttpCode(202)
  test(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<WebhookTestAccepted> {
    return this.rpc.request('webhooks.test', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({ summary: 'List deliveries with their attempts', access: 'tenant', query: DeliveryListQueryDto, success: { status: 200, description: 'A page of deliveries.', schema: 'WebhookDeliveryPage' }, errors: [404] })
  @Get(':id/deliveries')
  deliveries(
    @Tenant() tenantId: string,
    @Param('id', WebhookId) id: string,
    @Query() query: DeliveryListQueryDto,
    @RequestId() requestId: string,
  ): Promise<Page<WebhookDeliveryRecord>> {
    return this.rpc.request('deliveries.list', { tenant_id: tenantId, endpoint_id: id, status: query.status ?? null, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({
    summary: 'Get one delivery with the exact body it sends',
    access: 'tenant',
    success: { status: 200, description: 'The delivery, its attempts, the JSON body and the headers every attempt carries.', schema: 'WebhookDeliveryDetail' },
    errors: [404],
  })
  @Get(':id/deliveries/:delivery_id')
  delivery(
    @Tenant() tenantId: string,
    @Param('id', WebhookId) id: string,
    @Param('delivery_id', DeliveryId) deliveryId: string,
    @RequestId() requestId: string,
  ): Promise<WebhookDeliveryDetail> {
    return this.rpc.request('deliveries.get', { tenant_id: tenantId, endpoint_id: id, delivery_id: deliveryId }, { requestId });
  }

  @ApiRoute({ summary: 'Retry one delivery now', access: 'tenant', success: { status: 202, description: 'Queued again.', schema: 'RetryAccepted' }, errors: [404] })
  @Post(':id/deliveries/:delivery_id/retry')
  @HttpCode(202)
  retry(
    @Tenant() tenantId: string,
    @Param('id', WebhookId) id: string,
    @Param('delivery_id', DeliveryId) deliveryId: string,
    @RequestId() requestId: string,
  ): Promise<DeliveryRetryAccepted> {
    return this.rpc.request('deliveries.retry', { tenant_id: tenantId, endpoint_id: id, delivery_id: deliveryId }, { requestId });
  }

  @ApiRoute({ summary: 'Send again every event since a time (kept 7 days)', access: 'tenant', body: ReplayWebhookBody, success: { status: 202, description: 'Queued again.', schema: 'ReplayAccepted' }, errors: [404] })
  @Post(':id/replay')
  @HttpCode(202)
  replay(
    @Tenant() tenantId: string,
    @Param('id', WebhookId) id: string,
    @Body() body: ReplayWebhookBody,
    @RequestId() requestId: string,
  ): Promise<WebhookReplayAccepted> {
    return this.rpc.request('webhooks.replay', { tenant_id: tenantId, id, body }, { requestId });
  }
}
