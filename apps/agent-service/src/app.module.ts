import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KafkaModule } from '@parley/kafka';
import { CursorsModule, HealthModule, serviceDataSourceOptions, loadConfig, loggerParams } from '@parley/service-kit';
import { LoggerModule } from 'nestjs-pino';
import { AgentsModule } from './agents/agents.module';
import { AgentServiceConfig } from './config/agent-service.config';
import { DocumentsModule } from './documents/documents.module';
import { agentServiceDatabase } from './database/agent-service.database';

/** Builds the root module around one validated config (tests pass their own). */
export function agentServiceModule(config: AgentServiceConfig = loadConfig(AgentServiceConfig)) {
  @Module({
    imports: [
      LoggerModule.forRoot(loggerParams('agent-service', config.LOG_LEVEL)),
      TypeOrmModule.forRoot(serviceDataSourceOptions(config, agentServiceDatabase)),
      KafkaModule.forRootAsync({
        useFactory: () => ({ brokers: config.kafkaBrokers, clientId: 'agent-service', namespace: config.KAFKA_TOPIC_PREFIX, fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS }),
      }),
      HealthModule,
      CursorsModule.forRoot(config.CURSOR_SECRET),
      AgentsModule,
      DocumentsModule.forRoot(config),
    ],
    providers: [{ provide: AgentServiceConfig, useValue: config }],
  })
  class AgentServiceModule {}
  return AgentServiceModule;
}
