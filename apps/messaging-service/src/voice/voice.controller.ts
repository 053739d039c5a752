import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { Topics, type ConversationHandoffEvent, type RpcRequest, type RpcResponse } from '@parley/contracts';
import { VoiceState } from './voice-state';
import { VoiceWebhookService } from './voice-webhook.service';

/** The gateway's Twilio Voice webhooks (request-reply: Twilio waits for the TwiML), and handoffs of callers. */
@Controller()
export class VoiceController {
  constructor(
    private readonly webhooks: VoiceWebhookService,
    private readonly voice: VoiceState,
  ) {}

  @MessagePattern('channels.voice-webhook')
  webhook(@Payload() req: RpcRequest<'channels.voice-webhook'>): Promise<RpcResponse<'channels.voice-webhook'>> {
    return this.webhooks.handle(req);
  }

  /** A conversation handed to a person: when the customer is on a call, its next answer dials the channel's `forward_to`. */
  @EventPattern(Topics.ConversationHandoff)
  async onHandoff(@Payload() event: ConversationHandoffEvent): Promise<void> {
    await this.voice.calls.handOff(event.data.tenant_id, event.data.customer);
  }
}
