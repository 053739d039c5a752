import { Module } from '@nestjs/common';
import { AgentDocumentsController } from './agent-documents.controller';
import { AgentsController } from './agents.controller';
import { AgentAnalyticsController } from './agent-analytics.controller';
import { AgentTestsController } from './agent-tests.controller';
import { GapsController } from './gaps.controller';

@Module({ controllers: [AgentsController, AgentDocumentsController, GapsController, AgentAnalyticsController, AgentTestsController] })
export class AgentsModule {}
