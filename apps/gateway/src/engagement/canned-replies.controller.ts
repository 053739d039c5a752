import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateCannedReplyBody, UpdateCannedReplyBody, type CannedReplyRecord, type Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { Requires } from '../identity/auth/permissions';
import { pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { CannedReplyListQueryDto } from './canned-reply-list-query.dto';

const CannedReplyId = new PrefixedIdPipe('cnr', 'Canned reply');
const VARIABLES = 'The text may hold `{{contact.name}}` and `{{agent.name}}`, kept as written and filled in by whoever inserts the reply (the dashboard: the conversation’s contact and the signed-in member); any other `{{…}}` → 400 naming `text`.';

/** Canned replies (CONTRACT.md §18), owned by responder-service with the inbox. Whoever answers conversations keeps them. */
@Controller('api/v1/canned-replies')
export class CannedRepliesController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Create a canned reply',
    description: `\`shortcut\`: 1–32 lower-case letters, digits, \`-\` or \`_\`, one reply per shortcut (409 when taken). ${VARIABLES}`,
    access: 'tenant',
    body: CreateCannedReplyBody,
    success: { status: 201, description: 'Created.', schema: 'CannedReply' },
    errors: [409, 503],
  })
  @Post()
  @HttpCode(201)
  @Requires('conversations.reply')
  create(@Tenant() tenantId: string, @Body() body: CreateCannedReplyBody, @RequestId() requestId: string): Promise<CannedReplyRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('canned-replies.create', { tenant_id: tenantId, body: request }, { requestId });
  }

  @ApiRoute({
    summary: 'List canned replies',
    description: 'By shortcut (a picker’s order). `q` keeps those with each of its words in the shortcut or the text, case and accents ignored.',
    access: 'tenant',
    query: CannedReplyListQueryDto,
    success: { status: 200, description: 'A page of canned replies, by shortcut.', schema: 'CannedReplyPage' },
    errors: [503],
  })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: CannedReplyListQueryDto, @RequestId() requestId: string): Promise<Page<CannedReplyRecord>> {
    return this.rpc.request('canned-replies.list', { tenant_id: tenantId, ...pageOf(query), q: query.q ?? null }, { requestId });
  }

  @ApiRoute({ summary: 'Get a canned reply', access: 'tenant', success: { status: 200, description: 'The canned reply.', schema: 'CannedReply' }, errors: [404, 503] })
  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', CannedReplyId) id: string, @RequestId() requestId: string): Promise<CannedReplyRecord> {
    return this.rpc.request('canned-replies.get', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({
    summary: 'Change a canned reply',
    description: `Only the fields given change. ${VARIABLES}`,
    access: 'tenant',
    body: UpdateCannedReplyBody,
    success: { status: 200, description: 'The canned reply as it now is.', schema: 'CannedReply' },
    errors: [404, 409, 503],
  })
  @Patch(':id')
  @Requires('conversations.reply')
  update(@Tenant() tenantId: string, @Param('id', CannedReplyId) id: string, @Body() body: UpdateCannedReplyBody, @RequestId() requestId: string): Promise<CannedReplyRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('canned-replies.update', { tenant_id: tenantId, id, body: request }, { requestId });
  }

  @ApiRoute({ summary: 'Delete a canned reply', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [404, 503] })
  @Delete(':id')
  @HttpCode(204)
  @Requires('conversations.reply')
  async remove(@Tenant() tenantId: string, @Param('id', CannedReplyId) id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('canned-replies.delete', { tenant_id: tenantId, id }, { requestId });
  }
}
