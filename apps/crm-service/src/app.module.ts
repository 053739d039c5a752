import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KafkaModule } from '@parley/kafka';
import { CursorsModule, HealthModule, serviceDataSourceOptions, loadConfig, loggerParams } from '@parley/service-kit';
import { LoggerModule } from 'nestjs-pino';
import { CrmServiceConfig } from './config/crm-service.config';
import { crmServiceDatabase } from './database/crm-service.database';
import { CompaniesModule } from './companies/companies.module';
import { ContactsModule } from './contacts/contacts.module';
import { DealsModule } from './deals/deals.module';
import { ImportsModule } from './imports/imports.module';
import { OutboxModule } from './outbox/outbox.module';
import { PipelinesModule } from './pipelines/pipelines.module';

/** Builds the root module around one validated config (tests pass their own). */
export function crmServiceModule(config: CrmServiceConfig = loadConfig(CrmServiceConfig)) {
  @Global()
  @Module({ providers: [{ provide: CrmServiceConfig, useValue: config }], exports: [CrmServiceConfig] })
  class ConfigModule {}

  @Module({
    imports: [
      ConfigModule,
      LoggerModule.forRoot(loggerParams('crm-service', config.LOG_LEVEL)),
      TypeOrmModule.forRoot(serviceDataSourceOptions(config, crmServiceDatabase)),
      KafkaModule.forRootAsync({
        useFactory: () => ({ brokers: config.kafkaBrokers, clientId: 'crm-service', namespace: config.KAFKA_TOPIC_PREFIX, fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS, partitionsConsumedConcurrently: 4 }),
      }),
      HealthModule,
      CursorsModule.forRoot(config.CURSOR_SECRET),
      OutboxModule,
      ContactsModule,
      ImportsModule,
      CompaniesModule,
      PipelinesModule,
      DealsModule,
    ],
  })
  class CrmServiceModule {}
  return CrmServiceModule;
}
