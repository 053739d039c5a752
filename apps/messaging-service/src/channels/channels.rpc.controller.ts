import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { ChannelsService } from './channels.service';
import { EmbeddedSignupService } from './embedded-signup.service';

/** Request-reply handlers for the gateway's channel needs (CONTRACT.md §2, §4, §6, §7). */
@Controller()
export class ChannelsRpcController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly signup: EmbeddedSignupService,
  ) {}

  @MessagePattern('channels.provision-sandbox')
  provisionSandbox(@Payload() req: RpcRequest<'channels.provision-sandbox'>): Promise<RpcResponse<'channels.provision-sandbox'>> {
    return this.channels.provisionSandbox(req.tenant_id);
  }

  @MessagePattern('channels.list')
  list(@Payload() req: RpcRequest<'channels.list'>): Promise<RpcResponse<'channels.list'>> {
    return this.channels.list(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('channels.resolve-sender')
  resolveSender(@Payload() req: RpcRequest<'channels.resolve-sender'>): Promise<RpcResponse<'channels.resolve-sender'>> {
    return this.channels.resolveSender(req.tenant_id, req.phone_number);
  }

  @MessagePattern('channels.connect')
  connect(@Payload() req: RpcRequest<'channels.connect'>): Promise<RpcResponse<'channels.connect'>> {
    return this.channels.connectRequested(req.tenant_id, req.body);
  }

  @MessagePattern('channels.connect-sms')
  connectSms(@Payload() req: RpcRequest<'channels.connect-sms'>): Promise<RpcResponse<'channels.connect-sms'>> {
    return this.channels.connectSms(req.tenant_id, req.body);
  }

  @MessagePattern('channels.connect-email')
  connectEmail(@Payload() req: RpcRequest<'channels.connect-email'>): Promise<RpcResponse<'channels.connect-email'>> {
    return this.channels.connectEmail(req.tenant_id, req.body);
  }

  @MessagePattern('channels.connect-voice')
  connectVoice(@Payload() req: RpcRequest<'channels.connect-voice'>): Promise<RpcResponse<'channels.connect-voice'>> {
    return this.channels.connectVoice(req.tenant_id, req.body);
  }

  @MessagePattern('channels.verify-twilio-signature')
  verifyTwilioSignature(@Payload() req: RpcRequest<'channels.verify-twilio-signature'>): Promise<RpcResponse<'channels.verify-twilio-signature'>> {
    return this.channels.verifyTwilioSignature(req);
  }

  @MessagePattern('channels.embedded-signup')
  embeddedSignup(@Payload() req: RpcRequest<'channels.embedded-signup'>): Promise<RpcResponse<'channels.embedded-signup'>> {
    return this.signup.connect(req.tenant_id, { code: req.code, waba_id: req.waba_id, phone_number_id: req.phone_number_id });
  }

  @MessagePattern('channels.update')
  update(@Payload() req: RpcRequest<'channels.update'>): Promise<RpcResponse<'channels.update'>> {
    return this.channels.update(req.tenant_id, req.channel_id, req.body ?? {});
  }

  @MessagePattern('channels.delete')
  async remove(@Payload() req: RpcRequest<'channels.delete'>): Promise<RpcResponse<'channels.delete'>> {
    await this.channels.remove(req.tenant_id, req.channel_id);
    return { deleted: true };
  }

  @MessagePattern('channels.verify-inbound-token')
  async verifyInboundToken(@Payload() req: RpcRequest<'channels.verify-inbound-token'>): Promise<RpcResponse<'channels.verify-inbound-token'>> {
    return { valid: await this.channels.verifyInboundToken(req.channel_id, req.token) };
  }
}
