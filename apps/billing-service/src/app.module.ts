import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KafkaModule } from '@parley/kafka';
import { CursorsModule, HealthModule, serviceDataSourceOptions, loadConfig, loggerParams } from '@parley/service-kit';
import { LoggerModule } from 'nestjs-pino';
import { BillingServiceConfig } from './config/billing-service.config';
import { billingServiceDatabase } from './database/billing-service.database';
import { EstimatesModule } from './estimates/estimates.module';
import { InvoicesModule } from './invoices/invoices.module';
import { MeteringModule } from './metering/metering.module';
import { PricesModule } from './prices/prices.module';
import { TopUpsModule } from './top-ups/top-ups.module';
import { MonthUsageModule } from './usage/month-usage.module';
import { VoiceMinutesModule } from './voice/voice-minutes.module';
import { WalletModule } from './wallet/wallet.module';

/** Builds the root module around one validated config (tests pass their own). */
export function billingServiceModule(config: BillingServiceConfig = loadConfig(BillingServiceConfig)) {
  @Global()
  @Module({ providers: [{ provide: BillingServiceConfig, useValue: config }], exports: [BillingServiceConfig] })
  class ConfigModule {}

  @Module({
    imports: [
      ConfigModule,
      LoggerModule.forRoot(loggerParams('billing-service', config.LOG_LEVEL)),
      TypeOrmModule.forRoot(serviceDataSourceOptions(config, billingServiceDatabase)),
      // A tenant's wallet row serialises its charges, so more partitions at once would mostly wait on row locks.
      KafkaModule.forRootAsync({
        useFactory: () => ({ brokers: config.kafkaBrokers, clientId: 'billing-service', namespace: config.KAFKA_TOPIC_PREFIX, fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS, partitionsConsumedConcurrently: 4 }),
      }),
      HealthModule,
      CursorsModule.forRoot(config.CURSOR_SECRET),
      PricesModule,
      WalletModule,
      MeteringModule,
      EstimatesModule,
      TopUpsModule,
      InvoicesModule,
      VoiceMinutesModule,
      MonthUsageModule,
    ],
  })
  class BillingServiceModule {}
  return BillingServiceModule;
}
