import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ConnectWhatsappChannelBody,
  EmbeddedSignupBody,
  UpdateChannelBody,
  type ChannelRecord,
  type ConnectedChannelRecord,
  type Page,
} from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';

const ChannelId = new PrefixedIdPipe('chn', 'Channel');

/**
 * Embedded signup makes four Graph calls in a row (each with a 10 s limit in messaging-service), so it gets more
 * than the default RPC time-out.
 */
const SIGNUP_TIMEOUT_MS = 45_000;

/** The tenant's WhatsApp numbers (CONTRACT.md §6), owned by messaging-service; bodies are validated here. */
@Controller('api/v1/channels')
export class ChannelsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<ChannelRecord>> {
    return this.rpc.request('channels.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  /** 201; a 360dialog channel's answer carries its `inbound_token`, shown this once. */
  @Post('whatsapp')
  @HttpCode(201)
  connect(@Tenant() tenantId: string, @Body() body: ConnectWhatsappChannelBody, @RequestId() requestId: string): Promise<ConnectedChannelRecord> {
    return this.rpc.request('channels.connect', { tenant_id: tenantId, body }, { requestId });
  }

  @Post('whatsapp/embedded-signup')
  @HttpCode(201)
  embeddedSignup(@Tenant() tenantId: string, @Body() body: EmbeddedSignupBody, @RequestId() requestId: string): Promise<ChannelRecord> {
    return this.rpc.request(
      'channels.embedded-signup',
      { tenant_id: tenantId, code: body.code, waba_id: body.waba_id, phone_number_id: body.phone_number_id },
      { requestId, timeoutMs: SIGNUP_TIMEOUT_MS },
    );
  }

  @Patch(':channel_id')
  update(
    @Tenant() tenantId: string,
    @Param('channel_id', ChannelId) channelId: string,
    @Body() body: UpdateChannelBody,
    @RequestId() requestId: string,
  ): Promise<ChannelRecord> {
    return this.rpc.request('channels.update', { tenant_id: tenantId, channel_id: channelId, body }, { requestId });
  }

  @Delete(':channel_id')
  @HttpCode(204)
  async remove(@Tenant() tenantId: string, @Param('channel_id', ChannelId) channelId: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('channels.delete', { tenant_id: tenantId, channel_id: channelId }, { requestId });
  }
}
