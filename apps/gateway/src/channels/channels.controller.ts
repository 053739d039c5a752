import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ConnectEmailChannelBody,
  ConnectSmsChannelBody,
  ConnectVoiceChannelBody,
  ConnectWhatsappChannelBody,
  EmbeddedSignupBody,
  UpdateChannelBody,
  type ChannelView,
  type ConnectedChannelRecord,
  type Page,
} from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ChannelSendersService } from './channel-senders.service';
import { Requires } from '../identity/auth/permissions';

const ChannelId = new PrefixedIdPipe('chn', 'Channel');

/**
 * Embedded signup makes four Graph calls in a row (each with a 10 s limit in messaging-service), so it gets more
 * than the default RPC time-out.
 */
const SIGNUP_TIMEOUT_MS = 45_000;

/** The tenant's WhatsApp numbers (CONTRACT.md §6), owned by messaging-service; bodies are validated here. */
@Controller('api/v1/channels')
@Requires('channels.manage')
export class ChannelsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly senders: ChannelSendersService,
  ) {}

  @ApiRoute({ summary: 'List WhatsApp channels', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of channels.', schema: 'ChannelPage' } })
  @Get()
  @Requires()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<ChannelView>> {
    return this.rpc.request('channels.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  /** 201; a 360dialog channel's answer carries its `inbound_token`, shown this once. */
  @ApiRoute({ summary: 'Connect a WhatsApp number', access: 'tenant', body: ConnectWhatsappChannelBody, success: { status: 201, description: 'Connected; a 360dialog channel’s `inbound_token` is shown this once.', schema: 'ConnectedChannel' }, errors: [409, 503] })
  @Post('whatsapp')
  @HttpCode(201)
  connect(@Tenant() tenantId: string, @Body() body: ConnectWhatsappChannelBody, @RequestId() requestId: string): Promise<ConnectedChannelRecord> {
    return this.rpc.request('channels.connect', { tenant_id: tenantId, body }, { requestId });
  }

  @ApiRoute({ summary: 'Connect an SMS number (Twilio or the sandbox)', access: 'tenant', body: ConnectSmsChannelBody, success: { status: 201, description: 'Connected; the credentials are stored encrypted.', schema: 'Channel' }, errors: [409, 503] })
  @Post('sms')
  @HttpCode(201)
  connectSms(@Tenant() tenantId: string, @Body() body: ConnectSmsChannelBody, @RequestId() requestId: string): Promise<ChannelView> {
    return this.rpc.request('channels.connect-sms', { tenant_id: tenantId, body }, { requestId });
  }

  @ApiRoute({ summary: 'Connect an email address (SMTP or the sandbox)', access: 'tenant', body: ConnectEmailChannelBody, success: { status: 201, description: 'Connected; smtp_url is stored encrypted.', schema: 'Channel' }, errors: [409, 503] })
  @Post('email')
  @HttpCode(201)
  connectEmail(@Tenant() tenantId: string, @Body() body: ConnectEmailChannelBody, @RequestId() requestId: string): Promise<ChannelView> {
    return this.rpc.request('channels.connect-email', { tenant_id: tenantId, body }, { requestId });
  }

  @ApiRoute({ summary: 'Connect a voice number (Twilio or the sandbox)', access: 'tenant', body: ConnectVoiceChannelBody, success: { status: 201, description: 'Connected; its calls are answered by the agent. The credentials are stored encrypted.', schema: 'Channel' }, errors: [409, 503] })
  @Post('voice')
  @HttpCode(201)
  connectVoice(@Tenant() tenantId: string, @Body() body: ConnectVoiceChannelBody, @RequestId() requestId: string): Promise<ChannelView> {
    return this.rpc.request('channels.connect-voice', { tenant_id: tenantId, body }, { requestId });
  }

  @ApiRoute({ summary: 'Finish Meta’s embedded signup (server side)', access: 'tenant', body: EmbeddedSignupBody, success: { status: 201, description: 'The connected channel.', schema: 'Channel' }, errors: [409, 503] })
  @Post('whatsapp/embedded-signup')
  @HttpCode(201)
  embeddedSignup(@Tenant() tenantId: string, @Body() body: EmbeddedSignupBody, @RequestId() requestId: string): Promise<ChannelView> {
    return this.rpc.request(
      'channels.embedded-signup',
      { tenant_id: tenantId, code: body.code, waba_id: body.waba_id, phone_number_id: body.phone_number_id },
      { requestId, timeoutMs: SIGNUP_TIMEOUT_MS },
    );
  }

  @ApiRoute({ summary: 'Change a channel’s agent, default flag or send limit', access: 'tenant', body: UpdateChannelBody, success: { status: 200, description: 'The updated channel.', schema: 'Channel' }, errors: [404] })
  @Patch(':channel_id')
  update(
    @Tenant() tenantId: string,
    @Param('channel_id', ChannelId) channelId: string,
    @Body() body: UpdateChannelBody,
    @RequestId() requestId: string,
  ): Promise<ChannelView> {
    return this.rpc.request('channels.update', { tenant_id: tenantId, channel_id: channelId, body }, { requestId });
  }

  @ApiRoute({ summary: 'Disconnect a channel', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [404] })
  @Delete(':channel_id')
  @HttpCode(204)
  async remove(@Tenant() tenantId: string, @Param('channel_id', ChannelId) channelId: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('channels.delete', { tenant_id: tenantId, channel_id: channelId }, { requestId });
    // This instance refuses the number from the next send on; the others once `channel.changed` reaches them.
    this.senders.forgetTenant(tenantId);
  }
}
