import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KafkaModule } from '@parley/kafka';
import { CursorsModule, HealthModule, serviceDataSourceOptions, loadConfig, loggerParams } from '@parley/service-kit';
import { LoggerModule } from 'nestjs-pino';
import { AgentTestsModule } from './agent-tests/agent-tests.module';
import { AgentsModule } from './agents/agents.module';
import { CannedRepliesModule } from './canned-replies/canned-replies.module';
import { ReportsModule } from './reports/reports.module';
import { TeamsModule } from './teams/teams.module';
import { ResponderServiceConfig } from './config/responder-service.config';
import { ConversationsModule } from './conversations/conversations.module';
import { ErasureModule } from './erasure/erasure.module';
import { InboxLinksModule } from './conversations/inbox-links.module';
import { LlmSettingsModule } from './llm-settings/llm-settings.module';
import { responderServiceDatabase } from './database/responder-service.database';
import { RepliesModule } from './replies/replies.module';
import { SemanticsModule } from './semantics/semantics.module';

/** Builds the root module around one validated config (tests pass their own). */
export function responderServiceModule(config: ResponderServiceConfig = loadConfig(ResponderServiceConfig)) {
  const replies = RepliesModule.forRoot(config);
  @Module({
    imports: [
      LoggerModule.forRoot(loggerParams('responder-service', config.LOG_LEVEL)),
      TypeOrmModule.forRoot(serviceDataSourceOptions(config, responderServiceDatabase)),
      KafkaModule.forRootAsync({
        useFactory: () => ({ brokers: config.kafkaBrokers, clientId: 'responder-service', namespace: config.KAFKA_TOPIC_PREFIX, fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS }),
      }),
      HealthModule,
      SemanticsModule,
      CursorsModule.forRoot(config.CURSOR_SECRET),
      InboxLinksModule.forRoot(config.dashboardOrigin),
      AgentsModule,
      ConversationsModule,
      CannedRepliesModule,
      TeamsModule,
      ReportsModule,
      ErasureModule,
      replies,
      AgentTestsModule.forRoot(replies),
      LlmSettingsModule.forRoot(config),
    ],
    providers: [{ provide: ResponderServiceConfig, useValue: config }],
  })
  class ResponderServiceModule {}
  return ResponderServiceModule;
}
