import type { OutboundContent } from '@parley/contracts';
import { ProviderError, type ProviderSendResult, type ProviderSender, type WhatsappProviderAdapter } from '../providers/whatsapp-provider';
import type { VoiceCalls } from './voice-calls';
import type { VoiceReplies } from './voice-replies';

/**
 * "Sends" on a voice channel: nothing is posted to a provider. A reply to a caller is spoken in answer to the Twilio
 * request that is waiting for it (or to the redirect after a filler), so it is left in that turn's mailbox. A reply to
 * someone who is not on a call (it hung up meanwhile) fails: a call cannot be rung back with text.
 */
export class VoiceReplyAdapter implements WhatsappProviderAdapter {
  constructor(
    private readonly calls: VoiceCalls,
    private readonly replies: VoiceReplies,
  ) {}

  async send(sender: ProviderSender, to: string, content: OutboundContent, correlation?: string): Promise<ProviderSendResult> {
    if (content.type !== 'text') throw new ProviderError('unsupported_content', 'Only text can be spoken on a voice call', false);
    const call = await this.calls.activeBetween(sender.address, to);
    if (!call) throw new ProviderError('call_ended', 'The caller is no longer on a call with this number', false);
    await this.replies.deliver(call.callSid, call.turn, { text: content.text, handoff: call.handoff });
    return { providerMessageId: `${call.callSid}:${call.turn}:${correlation ?? Date.now()}` };
  }
}
