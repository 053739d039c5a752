import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KafkaModule } from '@parley/kafka';
import { CursorsModule, HealthModule, serviceDataSourceOptions, loadConfig, loggerParams } from '@parley/service-kit';
import { LoggerModule } from 'nestjs-pino';
import { ChannelsModule } from './channels/channels.module';
import { MessagingConfigModule } from './config/config.module';
import { MessagingServiceConfig } from './config/messaging-service.config';
import { messagingServiceDatabase } from './database/messaging-service.database';
import { EmailModule } from './email/email.module';
import { ErasureModule } from './erasure/erasure.module';
import { InboundModule } from './inbound/inbound.module';
import { MediaModule } from './media/media.module';
import { MessagesModule } from './messages/messages.module';
import { OptOutsModule } from './opt-outs/opt-outs.module';
import { TemplatesModule } from './templates/templates.module';
import { VoiceModule } from './voice/voice.module';

/** Builds the root module around one validated config (tests pass their own). */
export function messagingServiceModule(config: MessagingServiceConfig = loadConfig(MessagingServiceConfig)) {
  @Module({
    imports: [
      LoggerModule.forRoot(loggerParams('messaging-service', config.LOG_LEVEL)),
      MessagingConfigModule.forRoot(config),
      TypeOrmModule.forRoot(serviceDataSourceOptions(config, messagingServiceDatabase)),
      KafkaModule.forRootAsync({
        // Every partition of message.outbound (8) at once: how fast a burst reaches the send queue bounds its send rate.
        useFactory: () => ({
          brokers: config.kafkaBrokers,
          clientId: 'messaging-service',
          namespace: config.KAFKA_TOPIC_PREFIX,
          fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
          partitionsConsumedConcurrently: 8,
        }),
      }),
      HealthModule,
      CursorsModule.forRoot(config.CURSOR_SECRET),
      ChannelsModule,
      MessagesModule,
      InboundModule,
      EmailModule,
      OptOutsModule,
      ErasureModule,
      TemplatesModule,
      MediaModule,
      VoiceModule,
    ],
  })
  class MessagingServiceModule {}
  return MessagingServiceModule;
}
