import { Injectable, Logger } from '@nestjs/common';
import {
  CreateDocumentBody,
  documentBodyErrors,
  Topics,
  newId,
  notFoundProblem,
  validationProblem,
  SITEMAP_DEFAULT_PAGES,
  type DocumentChangedData,
  type DocumentImportRecord,
  type DocumentRecord,
  type DocumentUpload,
  type FieldError,
  type Page,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ListCursors, ProblemException, urlViolation, validateDto } from '@parley/service-kit';
import type { AgentEntity } from '../agents/agent.entity';
import { AgentsStore } from '../agents/agents.store';
import { AnnouncementRelay } from '../announcements/announcement-relay';
import { AgentServiceConfig } from '../config/agent-service.config';
import type { DocumentEntity } from './document.entity';
import { contentMismatch, documentFormat } from './document-formats';
import { DocumentProcessor } from './document-processor';
import { DocumentRefresher } from './document-refresher';
import { toDocumentRecord } from './documents.mapper';
import { DocumentsStore } from './documents.store';
import { DocumentImportsStore } from './imports/document-imports.store';
import { SitemapImporter } from './imports/sitemap-importer';

const PUBLISH_TIMEOUT_MS = 5000;
/** Documents the relay announces per pass. */
const RELAY_BATCH = 100;

/**
 * Owns agents' documents (CONTRACT.md §11): accepts them (stored whole, `processing`), lists, reads and deletes them,
 * scoped by tenant and agent. The DocumentProcessor turns them into passages; every document that became ready or was
 * deleted is announced on `document.changed`, and a change whose announcement failed is re-announced by the relay.
 */
@Injectable()
export class DocumentsService {
  private readonly logger = new Logger(DocumentsService.name);

  constructor(
    private readonly documents: DocumentsStore,
    private readonly agents: AgentsStore,
    private readonly publisher: EventPublisher,
    private readonly processor: DocumentProcessor,
    private readonly config: AgentServiceConfig,
    private readonly cursors: ListCursors,
    private readonly relay: AnnouncementRelay,
    refresher: DocumentRefresher,
    private readonly imports: DocumentImportsStore,
    private readonly importer: SitemapImporter,
  ) {
    this.processor.whenReady((document) => this.announce(document));
    refresher.whenUpdated((document) => this.announce(document));
    relay.register({ name: 'documents', relayPending: () => this.relayPending() });
  }

  async create(tenantId: string, agentName: string, upload: DocumentUpload): Promise<DocumentRecord> {
    const fields = upload.kind === 'json' ? await this.fromJson(upload.body) : fromFile(upload);
    const agent = await this.findAgent(tenantId, agentName);
    const saved = await this.documents.insert(tenantId, { id: newId('doc'), agentId: agent.id, agentName: agent.name, ...fields });
    this.processor.wake();
    return toDocumentRecord(saved);
  }

  /** Queues a sitemap import (`{sitemap_url, refresh?, max_pages?}`): the importer adds the pages in the background. */
  async importSitemap(tenantId: string, agentName: string, body: unknown): Promise<DocumentImportRecord> {
    const dto = await validateDto(CreateDocumentBody, body);
    const errors: FieldError[] = dto.sitemap_url === undefined ? [{ field: 'sitemap_url', message: 'sitemap_url is required' }] : documentBodyErrors(dto);
    if (errors.length === 0) {
      const violation = await urlViolation(dto.sitemap_url!, this.config.isProduction);
      if (violation) errors.push({ field: 'sitemap_url', message: violation.replace(/^url\b/, 'sitemap_url') });
    }
    if (errors.length > 0) throw new ProblemException(validationProblem(errors));
    const agent = await this.findAgent(tenantId, agentName);
    const record = await this.imports.create(tenantId, newId('imp'), agent, dto.sitemap_url!, dto.refresh ?? 'off', dto.max_pages ?? SITEMAP_DEFAULT_PAGES);
    this.importer.wake();
    return record;
  }

  async getImport(tenantId: string, agentName: string, id: string): Promise<DocumentImportRecord> {
    const agent = await this.findAgent(tenantId, agentName);
    const found = await this.imports.find(tenantId, agent.id, id);
    if (!found) throw new ProblemException(notFoundProblem(`Document import "${id}"`));
    return found;
  }

  async list(tenantId: string, agentName: string, limit: number, cursor: string | null): Promise<Page<DocumentRecord>> {
    const cursors = this.cursors.of(tenantId, `agents/${agentName}/documents`);
    const agent = await this.findAgent(tenantId, agentName);
    const rows = await this.documents.list(tenantId, agent.id, limit + 1, cursors.after(cursor));
    return { data: rows.slice(0, limit).map(toDocumentRecord), next_cursor: cursors.next(rows, limit, (row) => row.id) };
  }

  async get(tenantId: string, agentName: string, id: string): Promise<DocumentRecord> {
    const agent = await this.findAgent(tenantId, agentName);
    const document = await this.documents.findLive(tenantId, agent.id, id);
    if (!document) throw new ProblemException(notFoundProblem(`Document "${id}"`));
    return toDocumentRecord(document);
  }

  async delete(tenantId: string, agentName: string, id: string, requestId?: string): Promise<void> {
    const agent = await this.findAgent(tenantId, agentName);
    const entity = await this.documents.markDeleted(tenantId, agent.id, id);
    if (!entity) throw new ProblemException(notFoundProblem(`Document "${id}"`));
    await this.announce(entity, requestId);
  }

  /** Publishes a ready document's passages or a deleted document's tombstone; marks it announced once acknowledged. */
  async announce(entity: DocumentEntity, requestId?: string): Promise<void> {
    const deleted = entity.deletedAt !== null;
    const passages = deleted ? null : await this.documents.passagesOf(entity.tenantId, entity.id);
    const data: DocumentChangedData = {
      tenant_id: entity.tenantId,
      document_id: entity.id,
      agent_id: entity.agentId,
      agent_name: entity.agentName,
      title: entity.title,
      passages,
    };
    try {
      await this.publisher.publishEvent(
        EventPublisher.envelope(Topics.DocumentChanged, entity.tenantId, data, newId('evt')),
        `${entity.tenantId}:${entity.id}`,
        requestId,
        { timeoutMs: PUBLISH_TIMEOUT_MS },
      );
    } catch (err) {
      this.logger.warn(`document.changed for ${entity.id} not published yet (the relay retries): ${String(err)}`);
      this.relay.retrySoon();
      return;
    }
    await this.documents.markAnnounced(entity);
  }

  /** Announces changes not announced yet: a failed publish, a crash in between, or the documents of a deleted agent. */
  async relayPending(): Promise<number> {
    const pending = await this.documents.unannounced(RELAY_BATCH);
    for (const document of pending) await this.announce(document);
    return pending.length;
  }

  /** `{title, text}` or `{title?, url}`: one of the two, checked across fields. */
  private async fromJson(body: unknown): Promise<Pick<DocumentEntity, 'title' | 'source' | 'url' | 'contentType' | 'raw' | 'refresh'>> {
    const dto = await validateDto(CreateDocumentBody, body);
    const errors: FieldError[] = dto.sitemap_url !== undefined ? [{ field: 'sitemap_url', message: 'a sitemap is imported, not added as one document' }] : documentBodyErrors(dto);
    if (errors.length === 0 && dto.url !== undefined) {
      const violation = await urlViolation(dto.url, this.config.isProduction);
      if (violation) errors.push({ field: 'url', message: violation });
    }
    if (errors.length > 0) throw new ProblemException(validationProblem(errors));
    if (dto.url !== undefined) {
      return { title: dto.title ?? new URL(dto.url).host, source: 'url', url: dto.url, contentType: null, raw: null, refresh: dto.refresh ?? 'off' };
    }
    return { title: dto.title as string, source: 'text', url: null, contentType: 'text/markdown', raw: Buffer.from(dto.text as string, 'utf8'), refresh: 'off' };
  }

  private async findAgent(tenantId: string, name: string): Promise<AgentEntity> {
    const agent = await this.agents.findLive(tenantId, name);
    if (!agent) throw new ProblemException(notFoundProblem(`Agent "${name}"`));
    return agent;
  }
}

/** An uploaded file: its declared type must be one we read, and its bytes must be of that type. */
function fromFile(upload: Extract<DocumentUpload, { kind: 'file' }>): Pick<DocumentEntity, 'title' | 'source' | 'url' | 'contentType' | 'raw' | 'refresh'> {
  const format = documentFormat(upload.content_type);
  const bytes = Buffer.from(upload.data_base64, 'base64');
  const mismatch = format ? contentMismatch(format, bytes) : `file type "${upload.content_type}" is not supported; allowed: text/plain, text/markdown, text/html, application/pdf`;
  if (mismatch) throw new ProblemException(validationProblem([{ field: 'file', message: mismatch }]));
  if (bytes.length === 0) throw new ProblemException(validationProblem([{ field: 'file', message: 'file is empty' }]));
  const title = upload.title?.trim() || upload.filename?.trim() || 'Untitled document';
  if (title.length > 200) throw new ProblemException(validationProblem([{ field: 'title', message: 'title must be at most 200 characters' }]));
  return { title, source: 'file', url: null, contentType: format, raw: bytes, refresh: 'off' };
}
