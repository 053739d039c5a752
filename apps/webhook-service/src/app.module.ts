import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KafkaModule } from '@parley/kafka';
import { CursorsModule, HealthModule, serviceDataSourceOptions, loadConfig, loggerParams } from '@parley/service-kit';
import { LoggerModule } from 'nestjs-pino';
import { WebhookServiceConfig } from './config/webhook-service.config';
import { webhookServiceDatabase } from './database/webhook-service.database';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { EndpointsModule } from './endpoints/endpoints.module';

/** Builds the root module around one validated config (tests pass their own). */
export function webhookServiceModule(config: WebhookServiceConfig = loadConfig(WebhookServiceConfig)) {
  @Global()
  @Module({ providers: [{ provide: WebhookServiceConfig, useValue: config }], exports: [WebhookServiceConfig] })
  class ConfigModule {}

  @Module({
    imports: [
      ConfigModule,
      LoggerModule.forRoot(loggerParams('webhook-service', config.LOG_LEVEL)),
      TypeOrmModule.forRoot(serviceDataSourceOptions(config, webhookServiceDatabase)),
      KafkaModule.forRootAsync({
        // Ingesting is a short transaction per event; every partition of the busiest topics at once (order holds per partition).
        useFactory: () => ({
          brokers: config.kafkaBrokers,
          clientId: 'webhook-service',
          namespace: config.KAFKA_TOPIC_PREFIX,
          fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
          partitionsConsumedConcurrently: 16,
        }),
      }),
      HealthModule,
      CursorsModule.forRoot(config.CURSOR_SECRET),
      EndpointsModule,
      DeliveriesModule,
    ],
  })
  class WebhookServiceModule {}
  return WebhookServiceModule;
}
