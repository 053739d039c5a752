import { Module } from '@nestjs/common';
import { ProviderIntakeService } from './provider-intake.service';
import { WhatsappWebhookController } from './whatsapp-webhook.controller';

@Module({ controllers: [WhatsappWebhookController], providers: [ProviderIntakeService] })
export class ProviderIntakeModule {}
