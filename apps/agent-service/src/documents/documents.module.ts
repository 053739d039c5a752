import { Module, type DynamicModule } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AnnouncementsModule } from '../announcements/announcements.module';
import { AgentServiceConfig } from '../config/agent-service.config';
import { DocumentProcessor } from './document-processor';
import { DocumentRefresher } from './document-refresher';
import { DocumentsRpcController } from './documents.rpc.controller';
import { DocumentsService } from './documents.service';
import { DocumentsStore } from './documents.store';
import { DocumentImportsStore } from './imports/document-imports.store';
import { SitemapImporter } from './imports/sitemap-importer';

/** Agents' documents: intake, processing into passages, refreshing `url` documents, and `document.changed`. */
@Module({})
export class DocumentsModule {
  static forRoot(config: AgentServiceConfig): DynamicModule {
    return {
      module: DocumentsModule,
      imports: [AnnouncementsModule, AgentsModule],
      controllers: [DocumentsRpcController],
      providers: [{ provide: AgentServiceConfig, useValue: config }, DocumentsService, DocumentsStore, DocumentProcessor, DocumentRefresher, DocumentImportsStore, SitemapImporter],
    };
  }
}
