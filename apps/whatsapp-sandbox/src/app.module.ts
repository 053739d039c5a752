import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HealthModule, serviceDataSourceOptions, loadConfig, loggerParams, type BootstrapOptions } from '@parley/service-kit';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { LoggerModule } from 'nestjs-pino';
import { installGraphErrorHook } from './cloud-api/graph-error.filter';
import { WhatsappSandboxConfig } from './config/whatsapp-sandbox.config';
import { whatsappSandboxDatabase } from './database/whatsapp-sandbox.database';
import { EmailModule } from './email/email.module';
import { MediaModule } from './media/media.module';
import { MessagesModule } from './messages/messages.module';
import { NumbersModule } from './numbers/numbers.module';
import { SignupModule } from './signup/signup.module';
import { SmsModule } from './sms/sms.module';
import { VoiceModule } from './voice/voice.module';
import { StripeModule } from './stripe/stripe.module';
import { TemplatesModule } from './templates/templates.module';

/** How the sandbox's Nest app is created (main and tests alike): no Kafka; Graph-shaped framework errors. */
export const sandboxAppOptions: BootstrapOptions = {
  configureFastify: (fastify) => {
    installGraphErrorHook(fastify as FastifyInstance);
    // The Cloud API media upload (`POST /{phone_number_id}/media`) is multipart/form-data.
    void (fastify as FastifyInstance).register(multipart);
  },
};

/**
 * Builds the root module around one validated config (tests pass their own). The sandbox stands in for Meta's
 * WhatsApp Cloud API: it talks HTTP only (no Kafka) and keeps its numbers and messages in its own schema.
 */
export function whatsappSandboxModule(config: WhatsappSandboxConfig = loadConfig(WhatsappSandboxConfig)) {
  @Global()
  @Module({ providers: [{ provide: WhatsappSandboxConfig, useValue: config }], exports: [WhatsappSandboxConfig] })
  class ConfigModule {}

  @Module({
    imports: [
      ConfigModule,
      LoggerModule.forRoot(loggerParams('whatsapp-sandbox', config.LOG_LEVEL)),
      TypeOrmModule.forRoot(serviceDataSourceOptions(config, whatsappSandboxDatabase)),
      HealthModule,
      NumbersModule,
      MessagesModule,
      SignupModule,
      TemplatesModule,
      MediaModule,
      SmsModule,
      VoiceModule,
      EmailModule,
      StripeModule,
    ],
  })
  class WhatsappSandboxModule {}
  return WhatsappSandboxModule;
}
