import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type DocumentChangedEvent } from '@parley/contracts';
import { AgentDocumentsService } from './agent-documents.service';

/** Keeps the document read model in step with agent-service. */
@Controller()
export class AgentDocumentsConsumer {
  constructor(private readonly documents: AgentDocumentsService) {}

  @EventPattern(Topics.DocumentChanged)
  async onDocumentChanged(@Payload() event: DocumentChangedEvent): Promise<void> {
    await this.documents.applyChange(event);
  }
}
