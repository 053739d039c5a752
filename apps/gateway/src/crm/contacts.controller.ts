import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateContactBody, UpdateContactBody, type ContactRecord, type Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ContactListQueryDto } from './contact-list-query.dto';

const ContactId = new PrefixedIdPipe('ctc', 'Contact');

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

  @ApiRoute({ summary: 'Delete a contact', description: 'Announced as `contact.deleted`.', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [404, 503] })
  @Delete(':id')
  @HttpCode(204)
  async remove(@Tenant() tenantId: string, @Param('id', ContactId) id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('contacts.delete', { tenant_id: tenantId, id }, { requestId });
  }
}
