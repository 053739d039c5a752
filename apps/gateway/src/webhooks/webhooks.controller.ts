import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateWebhookBody,
  ReplayWebhookBody,
  UpdateWebhookBody,
  type Page,
  type RpcResponse,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
} from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';

import { DeliveryListQueryDto } from './delivery-list-query.dto';

const WebhookId = new PrefixedIdPipe('whk', 'Webhook endpoint');
const DeliveryId = new PrefixedIdPipe('dlv', 'Delivery');

/** Tenant webhook settings (CONTRACT.md §5), owned by webhook-service. */
@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  create(@Tenant() tenantId: string, @Body() body: CreateWebhookBody, @RequestId() requestId: string): Promise<WebhookEndpointRecord & { secret: string }> {
    return this.rpc.request('webhooks.create', { tenant_id: tenantId, body }, { requestId });
  }

  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<WebhookEndpointRecord>> {
    return this.rpc.request('webhooks.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<WebhookEndpointRecord> {
    return this.rpc.request('webhooks.get', { tenant_id: tenantId, id }, { requestId });
  }

  @Patch(':id')
  update(
    @Tenant() tenantId: string,
    @Param('id', WebhookId) id: string,
    @Body() body: UpdateWebhookBody,
    @RequestId() requestId: string,
  ): Promise<WebhookEndpointRecord> {
    return this.rpc.request('webhooks.update', { tenant_id: tenantId, id, body }, { requestId });
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('webhooks.delete', { tenant_id: tenantId, id }, { requestId });
  }

  @Get(':id/secret')
  secret(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<{ secret: string }> {
    return this.rpc.request('webhooks.get-secret', { tenant_id: tenantId, id }, { requestId });
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<{ secret: string }> {
    return this.rpc.request('webhooks.rotate-secret', { tenant_id: tenantId, id }, { requestId });
  }

  @Post(':id/test')
  @HttpCode(202)
  test(@Tenant() tenantId: string, @Param('id', WebhookId) id: string, @RequestId() requestId: string): Promise<RpcResponse<'webhooks.test'>> {
    return this.rpc.request('webhooks.test', { tenant_id: tenantId, id }, { requestId });
  }

  @Get(':id/deliveries')
  deliveries(
    @Tenant() tenantId: string,
    @Param('id', WebhookId) id: string,
    @Query() query: DeliveryListQueryDto,
    @RequestId() requestId: string,
  ): Promise<Page<WebhookDeliveryRecord>> {
    return this.rpc.request('deliveries.list', { tenant_id: tenantId, endpoint_id: id, status: query.status ?? null, ...pageOf(query) }, { requestId });
  }

  @Post(':id/deliveries/:delivery_id/retry')
  @HttpCode(202)
  retry(
    @Tenant() tenantId: string,
    @Param('id', WebhookId) id: string,
    @Param('delivery_id', DeliveryId) deliveryId: string,
    @RequestId() requestId: string,
  ): Promise<RpcResponse<'deliveries.retry'>> {
    return this.rpc.request('deliveries.retry', { tenant_id: tenantId, endpoint_id: id, delivery_id: deliveryId }, { requestId });
  }

  @Post(':id/replay')
  @HttpCode(202)
  replay(
    @Tenant() tenantId: string,
    @Param('id', WebhookId) id: string,
    @Body() body: ReplayWebhookBody,
    @RequestId() requestId: string,
  ): Promise<RpcResponse<'webhooks.replay'>> {
    return this.rpc.request('webhooks.replay', { tenant_id: tenantId, id, body }, { requestId });
  }
}
