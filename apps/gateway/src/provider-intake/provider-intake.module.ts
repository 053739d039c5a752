import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { InboundTokenVerifier } from './inbound-token.verifier';
import { ProviderIntakeService } from './provider-intake.service';
import { StripeWebhookController } from './stripe-webhook.controller';
import { ThreeSixtyDialogWebhookController } from './three-sixty-dialog-webhook.controller';
import { TwilioVoiceWebhookController } from './twilio-voice.controller';
import { TwilioWebhookController } from './twilio-webhook.controller';
import { WhatsappWebhookController } from './whatsapp-webhook.controller';

@Module({
  imports: [RateLimitsModule],
  controllers: [WhatsappWebhookController, ThreeSixtyDialogWebhookController, TwilioWebhookController, TwilioVoiceWebhookController, StripeWebhookController], providers: [ProviderIntakeService, InboundTokenVerifier],
})
export class ProviderIntakeModule {}
