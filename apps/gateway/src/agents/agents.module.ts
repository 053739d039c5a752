import { Module } from '@nestjs/common';
import { AgentDocumentsController } from './agent-documents.controller';
import { AgentsController } from './agents.controller';

@Module({ controllers: [AgentsController, AgentDocumentsController] })
export class AgentsModule {}
