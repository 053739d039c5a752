import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KafkaModule } from '@parley/kafka';
import { CursorsModule, HealthModule, serviceDataSourceOptions, loadConfig, loggerParams } from '@parley/service-kit';
import { LoggerModule } from 'nestjs-pino';
import { CampaignsModule } from './campaigns/campaigns.module';
import { ErasureModule } from './erasure/erasure.module';
import { CampaignServiceConfig } from './config/campaign-service.config';
import { campaignServiceDatabase } from './database/campaign-service.database';

/** Builds the root module around one validated config (tests pass their own). */
export function campaignServiceModule(config: CampaignServiceConfig = loadConfig(CampaignServiceConfig)) {
  @Global()
  @Module({ providers: [{ provide: CampaignServiceConfig, useValue: config }], exports: [CampaignServiceConfig] })
  class ConfigModule {}

  @Module({
    imports: [
      ConfigModule,
      LoggerModule.forRoot(loggerParams('campaign-service', config.LOG_LEVEL)),
      TypeOrmModule.forRoot(serviceDataSourceOptions(config, campaignServiceDatabase)),
      KafkaModule.forRootAsync({
        // the RPC client resolves audiences from crm-service (and checks templates with messaging-service)
        useFactory: () => ({
          brokers: config.kafkaBrokers,
          clientId: 'campaign-service',
          namespace: config.KAFKA_TOPIC_PREFIX,
          fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
          partitionsConsumedConcurrently: 4,
          rpcClient: true,
          rpcTimeoutMs: 20_000,
        }),
      }),
      HealthModule,
      CursorsModule.forRoot(config.CURSOR_SECRET),
      CampaignsModule,
      ErasureModule,
    ],
  })
  class CampaignServiceModule {}
  return CampaignServiceModule;
}
