import { Module } from '@nestjs/common';
import { AgentDocumentsConsumer } from './agent-documents.consumer';
import { AgentDocumentsService } from './agent-documents.service';

@Module({ controllers: [AgentDocumentsConsumer], providers: [AgentDocumentsService], exports: [AgentDocumentsService] })
export class AgentDocumentsModule {}
