import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KafkaModule } from '@parley/kafka';
import { CursorsModule, HealthModule, serviceDataSourceOptions, loadConfig, loggerParams } from '@parley/service-kit';
import { LoggerModule } from 'nestjs-pino';
import { AdminModule } from './admin/admin.module';
import { AgentsModule } from './agents/agents.module';
import { BillingModule } from './billing/billing.module';
import { ChannelsModule } from './channels/channels.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { EngagementModule } from './engagement/engagement.module';
import { ReportsModule } from './reports/reports.module';
import { TeamsModule } from './teams/teams.module';
import { EventsStreamModule } from './events-stream/events-stream.module';
import { GatewayConfig } from './config/gateway.config';
import { GuideModule } from './guide/guide.module';
import { IdentityModule } from './identity/identity.module';
import { gatewayDatabase } from './database/gateway.database';
import { MediaModule } from './media/media.module';
import { MessagesModule } from './messages/messages.module';
import { ProviderIntakeModule } from './provider-intake/provider-intake.module';
import { RedisModule } from './redis/redis.module';
import { SendModule } from './send/send.module';
import { TemplatesModule } from './templates/templates.module';
import { CrmModule } from './crm/crm.module';
import { CampaignsModule } from './campaigns/campaigns.module';
import { UsageModule } from './usage/usage.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** Builds the root module around one validated config (tests pass their own). */
export function gatewayModule(config: GatewayConfig = loadConfig(GatewayConfig)) {
  /** The config, visible to every feature module. */
  @Global()
  @Module({ providers: [{ provide: GatewayConfig, useValue: config }], exports: [GatewayConfig] })
  class GatewayConfigModule {}

  @Module({
    imports: [
      GatewayConfigModule,
      LoggerModule.forRoot(loggerParams('gateway', config.LOG_LEVEL)),
      TypeOrmModule.forRoot(serviceDataSourceOptions(config, gatewayDatabase)),
      // The gateway publishes, makes request-reply calls (hence the reply consumer) and, for the dashboard's live
      // stream, reads the public events with a consumer of its own per instance (events-stream/).
      KafkaModule.forRootAsync({
        useFactory: () => ({
          brokers: config.kafkaBrokers,
          clientId: 'gateway',
          namespace: config.KAFKA_TOPIC_PREFIX,
          fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
          rpcClient: true,
          // Sends and provider notifications arrive one HTTP request at a time: waiting 5 ms lets those of a busy moment
          // share a produce request (issue 33: 1.2-1.5 -> 0.86 produce requests a message at 100/s; CONTRACT.md §4).
          publishLingerMs: 5,
        }),
      }),
      HealthModule,
      CursorsModule.forRoot(config.CURSOR_SECRET),
      RedisModule,
      // Who the caller is and what they may do: accounts, tenants, API keys, OAuth, sign-in, team (identity/).
      IdentityModule,
      AgentsModule,
      SendModule,
      WebhooksModule,
      MessagesModule,
      ChannelsModule,
      TemplatesModule,
      CrmModule,
      CampaignsModule,
      MediaModule,
      EngagementModule,
      TeamsModule,
      ReportsModule,
      ProviderIntakeModule,
      UsageModule,
      AdminModule,
      BillingModule,
      DashboardModule,
      EventsStreamModule,
      // The docs site is for developers working on a checkout; production serves its own copy elsewhere.
      ...(config.isProduction ? [] : [GuideModule]),
    ],
  })
  class GatewayModule {}
  return GatewayModule;
}
