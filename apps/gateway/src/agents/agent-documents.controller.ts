import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CreateDocumentBody, documentBodyErrors, notFoundProblem, validationProblem, type DocumentImportRecord, type DocumentRecord, type Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException, validateDto } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { Requires } from '../identity/auth/permissions';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { AgentNamePipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute, type ApiRouteOptions } from '../openapi/api-route.decorator';
import { readDocumentUpload } from './document-uploads';

const DOCUMENT_ID = /^doc_[0-9A-HJKMNP-TV-Z]{26}$/;
const IMPORT_ID = /^imp_[0-9A-HJKMNP-TV-Z]{26}$/;
/** An upload (up to 10 MiB) travels to agent-service whole; give the call more time than a settings read. */
const UPLOAD_TIMEOUT_MS = 30_000;

const DOCUMENT_BODY: ApiRouteOptions['body'] = {
  description:
    '`{title, text}` (plain text or Markdown, ≤ 1 MiB) or `{title?, url, refresh?}` as JSON, or `multipart/form-data` with one `file` ' +
    '(text/plain, text/markdown, text/html or application/pdf; ≤ 10 MiB) and an optional `title`. `refresh` (`off`, `daily`, `weekly`; default `off`): ' +
    'the page is fetched again on that schedule with a conditional request; a changed page replaces the passages at once, a failed fetch keeps them and `last_refresh` says why. ' +
    '`{sitemap_url, refresh?, max_pages?}` imports a sitemap in the background: answered `202` with the import (`import_id`; follow it at `GET …/documents/imports/{import_id}`); ' +
    'each page under it becomes a `url` document, except those robots.txt disallows, the address rules refuse or the agent has already, up to `max_pages` (≤ 500, default 100) and 500 documents per agent.',
  contentTypes: ['application/json', 'multipart/form-data'],
  schema: {
    oneOf: [
      { type: 'object', title: 'Text', properties: { title: { type: 'string', minLength: 1, maxLength: 200 }, text: { type: 'string', minLength: 1, maxLength: 1048576 } }, required: ['title', 'text'], additionalProperties: false },
      { type: 'object', title: 'URL', properties: { title: { type: 'string', minLength: 1, maxLength: 200 }, url: { type: 'string', format: 'uri', maxLength: 2048 }, refresh: { type: 'string', enum: ['off', 'daily', 'weekly'] } }, required: ['url'], additionalProperties: false },
      {
        type: 'object',
        title: 'Sitemap',
        properties: {
          sitemap_url: { type: 'string', format: 'uri', maxLength: 2048 },
          refresh: { type: 'string', enum: ['off', 'daily', 'weekly'] },
          max_pages: { type: 'integer', minimum: 1, maximum: 500, description: 'The most pages it adds (default 100).' },
        },
        required: ['sitemap_url'],
        additionalProperties: false,
      },
      { type: 'object', title: 'File (multipart/form-data)', properties: { file: { type: 'string', format: 'binary' }, title: { type: 'string', maxLength: 200 } }, required: ['file'] },
    ],
  },
};

/** An agent's documents (CONTRACT.md §11), owned and processed by agent-service. */
@Controller('api/v1/agents/:agent_name/documents')
export class AgentDocumentsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Add a document to an agent',
    description: 'Accepted as `processing`; it becomes `ready` (`chunks` passages indexed) or `failed` (`error` says why). A URL is fetched with the webhook address rules.',
    access: 'tenant',
    body: DOCUMENT_BODY,
    success: {
      status: 202,
      description: 'Accepted; processing follows. A sitemap: the import, queued.',
      schema: { oneOf: [{ $ref: '#/components/schemas/Document' }, { $ref: '#/components/schemas/DocumentImport' }] },
    },
    errors: [404, 503],
  })
  @Post()
  @Requires('agents.manage')
  @HttpCode(202)
  async create(
    @Tenant() tenantId: string,
    @Param('agent_name', AgentNamePipe) agent: string,
    @Req() request: FastifyRequest,
    @Body() body: unknown,
    @RequestId() requestId: string,
  ): Promise<DocumentRecord | DocumentImportRecord> {
    if (request.isMultipart()) {
      return this.rpc.request('documents.create', { tenant_id: tenantId, agent, upload: await readDocumentUpload(request) }, { requestId, timeoutMs: UPLOAD_TIMEOUT_MS });
    }
    const json = await documentJson(body);
    if (json.sitemap_url !== undefined) return this.rpc.request('documents.import', { tenant_id: tenantId, agent, body: json }, { requestId });
    return this.rpc.request('documents.create', { tenant_id: tenantId, agent, upload: { kind: 'json', body: json } }, { requestId, timeoutMs: UPLOAD_TIMEOUT_MS });
  }

  @ApiRoute({
    summary: 'Follow a sitemap import',
    description: 'Its status (`queued`, `running`, `completed` or `failed` with `error`), the pages found under the sitemap, the documents added, and the pages skipped with why (the first 50).',
    access: 'tenant',
    success: { status: 200, description: 'The import.', schema: 'DocumentImport' },
    errors: [404, 503],
  })
  @Get('imports/:import_id')
  getImport(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Param('import_id') id: string, @RequestId() requestId: string): Promise<DocumentImportRecord> {
    if (!IMPORT_ID.test(id)) throw new ProblemException(notFoundProblem(`Document import "${id.slice(0, 40)}"`));
    return this.rpc.request('documents.import-get', { tenant_id: tenantId, agent, id }, { requestId });
  }

  @ApiRoute({ summary: "List an agent's documents", access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of documents, newest first.', schema: 'DocumentPage' }, errors: [404] })
  @Get()
  list(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<DocumentRecord>> {
    return this.rpc.request('documents.list', { tenant_id: tenantId, agent, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({ summary: 'Get a document and its processing status', access: 'tenant', success: { status: 200, description: 'The document.', schema: 'Document' }, errors: [400, 404] })
  @Get(':document_id')
  get(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Param('document_id') id: string, @RequestId() requestId: string): Promise<DocumentRecord> {
    return this.rpc.request('documents.get', { tenant_id: tenantId, agent, id: documentId(id) }, { requestId });
  }

  @ApiRoute({ summary: 'Delete a document (its passages leave the agent within 5 s)', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [400, 404] })
  @Delete(':document_id')
  @Requires('agents.manage')
  @HttpCode(204)
  async delete(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Param('document_id') id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('documents.delete', { tenant_id: tenantId, agent, id: documentId(id) }, { requestId });
  }
}

/** A JSON document body that passes the field rules and the rule across them (agent-service checks the URL itself). */
async function documentJson(body: unknown): Promise<CreateDocumentBody> {
  const dto = await validateDto(CreateDocumentBody, body);
  const errors = documentBodyErrors(dto);
  if (errors.length > 0) throw new ProblemException(validationProblem(errors));
  return dto;
}

/** A document id that cannot exist is simply not found, without a call. */
function documentId(id: string): string {
  if (!DOCUMENT_ID.test(id)) throw new ProblemException(notFoundProblem(`Document "${id.slice(0, 40)}"`));
  return id;
}
