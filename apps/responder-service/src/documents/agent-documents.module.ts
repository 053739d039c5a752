import { Module } from '@nestjs/common';
import { AgentDocumentsConsumer } from './agent-documents.consumer';
import { AgentDocumentsService } from './agent-documents.service';
import { AgentDocumentsStore } from './agent-documents.store';

@Module({ controllers: [AgentDocumentsConsumer], providers: [AgentDocumentsService, AgentDocumentsStore], exports: [AgentDocumentsService] })
export class AgentDocumentsModule {}
