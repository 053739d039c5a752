import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { CreateContactActivityBody, CreateContactBody, UpdateContactBody, type ContactActivityRecord, type ContactImportJob, type ContactRecord, type Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Requires } from '../identity/auth/permissions';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { readContactImport } from './contact-imports';
import { ContactListQueryDto } from './contact-list-query.dto';

const ContactId = new PrefixedIdPipe('ctc', 'Contact');
const ImportId = new PrefixedIdPipe('imp', 'Import');

/** A large CSV (up to 16 MiB) travels whole to crm-service and is stored there: more time than the default. */
const LARGE_IMPORT_BYTES = 1024 * 1024;
const LARGE_IMPORT_TIMEOUT_MS = 20_000;
const EXPORT_PAGE = 1000;
const EXPORT_COLUMNS = ['id', 'phone', 'email', 'name', 'company_id', 'tags', 'opted_out', 'attributes', 'created_at', 'updated_at'];
const exportRow = (c: ContactRecord) => [c.id, c.phone, c.email, c.name, c.company_id, c.tags.join(';'), c.opted_out, JSON.stringify(c.attributes), c.created_at, c.updated_at];

/** Contacts (CONTRACT.md §14), owned by crm-service. */
@Controller('api/v1/contacts')
export class ContactsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Create a contact',
    description:
      'A customer\'s first message makes their contact by itself; this adds one by hand. One contact per `phone` (E.164) and tenant: another contact\'s number answers `409` naming `phone`. `attributes`: up to 50 keys of strings, numbers and booleans. Announced as `contact.created`.',
    access: 'tenant',
    body: CreateContactBody,
    success: { status: 201, description: 'Created.', schema: 'Contact' },
    errors: [409, 503],
  })
  @Post()
  @HttpCode(201)
  create(@Tenant() tenantId: string, @Body() body: CreateContactBody, @RequestId() requestId: string): Promise<ContactRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('contacts.create', { tenant_id: tenantId, body: request }, { requestId });
  }

  @ApiRoute({
    summary: 'List contacts',
    description: '`q` finds any part of a name, email or number (and near spellings of a single word); `tag`, `company_id` and `opted_out` narrow the list. Newest first.',
    access: 'tenant',
    query: ContactListQueryDto,
    success: { status: 200, description: 'A page of contacts, newest first.', schema: 'ContactPage' },
    errors: [503],
  })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ContactListQueryDto, @RequestId() requestId: string): Promise<Page<ContactRecord>> {
    const { q, tag, company_id, opted_out } = query;
    return this.rpc.request('contacts.list', { tenant_id: tenantId, ...pageOf(query), q, tag, company_id, opted_out }, { requestId });
  }

  @ApiRoute({
    summary: 'Import contacts from a CSV',
    description:
      'A header row, then a contact per row: columns `phone` (E.164, required), `email`, `name`, `tags` (separated by `;` or `,`), any other column an attribute. ' +
      'A row sets what its cells hold on the contact of its number (made if new): tags are added, attributes merged. Imported in the background: ' +
      '`202 {job_id}`, then `GET /api/v1/contacts/import/{job_id}` for progress and the bad rows with their row number (1 = the first after the header). At most 16 MiB.',
    access: 'tenant',
    body: {
      contentTypes: ['text/csv', 'multipart/form-data'],
      schema: { type: 'string', description: 'The CSV itself (text/csv), or a form with one `file` part.' },
    },
    success: { status: 202, description: 'Queued.', schema: { type: 'object', properties: { job_id: { type: 'string', pattern: '^imp_' } }, required: ['job_id'] } },
    errors: [413, 503],
  })
  @Post('import')
  @HttpCode(202)
  async import(@Tenant() tenantId: string, @Req() request: FastifyRequest, @RequestId() requestId: string): Promise<{ job_id: string }> {
    const csv = await readContactImport(request);
    const timeoutMs = csv.length > LARGE_IMPORT_BYTES ? LARGE_IMPORT_TIMEOUT_MS : undefined;
    return this.rpc.request('contacts.import', { tenant_id: tenantId, csv }, { requestId, timeoutMs });
  }

  @ApiRoute({
    summary: 'Progress of a contact import',
    description: '`status`: `queued`, `running`, `completed` or `failed` (the file could not be read on; `error` says why, the rows before it stay imported). `failed` lists the first 1000 bad rows.',
    access: 'tenant',
    success: { status: 200, description: 'The import.', schema: 'ContactImport' },
    errors: [404, 503],
  })
  @Get('import/:job_id')
  importStatus(@Tenant() tenantId: string, @Param('job_id', ImportId) jobId: string, @RequestId() requestId: string): Promise<ContactImportJob> {
    return this.rpc.request('contacts.import-status', { tenant_id: tenantId, job_id: jobId }, { requestId });
  }

  @ApiRoute({
    summary: 'Export every contact as CSV',
    description: `Streamed, oldest first: ${EXPORT_COLUMNS.join(', ')} (tags separated by \`;\`, attributes as JSON).`,
    access: 'tenant',
    success: { status: 200, description: 'The CSV.', contentType: 'text/csv', schema: { type: 'string' } },
    errors: [503],
  })
  @Get('export')
  @Requires('contacts.export')
  async export(@Tenant() tenantId: string, @RequestId() requestId: string, @Res() reply: FastifyReply): Promise<void> {
    const page = (cursor: string | null) => this.rpc.request('contacts.export-page', { tenant_id: tenantId, limit: EXPORT_PAGE, cursor }, { requestId });
    // The first page is read before answering, so a crm-service that cannot answer gets a 503, not a cut-off file.
    const first = await page(null);
    async function* csv(): AsyncGenerator<string> {
      yield stringify([EXPORT_COLUMNS]);
      for (let current = first; ; current = await page(current.next_cursor)) {
        if (current.data.length) yield stringify(current.data.map(exportRow));
        if (!current.next_cursor) return;
      }
    }
    await reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="contacts.csv"').send(Readable.from(csv()));
  }

  @ApiRoute({ summary: 'Get a contact', access: 'tenant', success: { status: 200, description: 'The contact.', schema: 'Contact' }, errors: [404, 503] })
  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', ContactId) id: string, @RequestId() requestId: string): Promise<ContactRecord> {
    return this.rpc.request('contacts.get', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({
    summary: 'Change a contact',
    description: 'Only the fields given change; `null` clears `phone`, `email`, `name` or `company_id`; `tags` and `attributes` are replaced whole. Announced as `contact.updated`.',
    access: 'tenant',
    body: UpdateContactBody,
    success: { status: 200, description: 'The contact as it now is.', schema: 'Contact' },
    errors: [404, 409, 503],
  })
  @Patch(':id')
  update(@Tenant() tenantId: string, @Param('id', ContactId) id: string, @Body() body: UpdateContactBody, @RequestId() requestId: string): Promise<ContactRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('contacts.update', { tenant_id: tenantId, id, body: request }, { requestId });
  }

  @ApiRoute({
    summary: "A contact's timeline",
    description:
      'Newest first: its messages in and out (any channel), captured leads, appointments booked, moved or cancelled, its deals opened and moved, and the notes, calls and tasks added by hand. Messages to and from its number count from before the contact existed.',
    access: 'tenant',
    query: ListQueryDto,
    success: { status: 200, description: 'A page of the timeline, newest first.', schema: 'ContactActivityPage' },
    errors: [404, 503],
  })
  @Get(':id/activities')
  activities(@Tenant() tenantId: string, @Param('id', ContactId) id: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<ContactActivityRecord>> {
    return this.rpc.request('contacts.activities', { tenant_id: tenantId, id, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({
    summary: 'Add a note, call or task to a contact',
    description: '`type`: `note`, `call` or `task` (with an optional `due_at`); `text` up to 5000 characters.',
    access: 'tenant',
    body: CreateContactActivityBody,
    success: { status: 201, description: 'The entry, now on the timeline.', schema: 'ContactActivity' },
    errors: [404, 503],
  })
  @Post(':id/activities')
  @HttpCode(201)
  addActivity(@Tenant() tenantId: string, @Param('id', ContactId) id: string, @Body() body: CreateContactActivityBody, @RequestId() requestId: string): Promise<ContactActivityRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('contacts.add-activity', { tenant_id: tenantId, id, body: request }, { requestId });
  }

  @ApiRoute({ summary: 'Delete a contact', description: 'Announced as `contact.deleted`.', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [404, 503] })
  @Delete(':id')
  @HttpCode(204)
  async remove(@Tenant() tenantId: string, @Param('id', ContactId) id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('contacts.delete', { tenant_id: tenantId, id }, { requestId });
  }
}
