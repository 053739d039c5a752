import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { ConversationRecord, ConversationSummary, Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

/** Conversations (CONTRACT.md §9, §10), owned by responder-service. */
@Controller('api/v1/conversations')
export class ConversationsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({ summary: 'List conversations', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of conversations.', schema: 'ConversationPage' } })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<ConversationSummary>> {
    return this.rpc.request('conversations.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({ summary: 'Get a conversation with its messages', access: 'tenant', success: { status: 200, description: 'The conversation.', schema: 'ConversationDetail' }, errors: [404] })
  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', new PrefixedIdPipe('cnv', 'Conversation')) id: string, @RequestId() requestId: string): Promise<ConversationRecord> {
    return this.rpc.request('conversations.get', { tenant_id: tenantId, id }, { requestId });
  }

  /** The tenant takes a handed-off conversation back: the agent answers again. */
  @ApiRoute({ summary: 'Release a handed-off conversation back to the agent', access: 'tenant', success: { status: 200, description: 'The conversation.', schema: 'Conversation' }, errors: [404] })
  @Post(':id/release')
  @HttpCode(200)
  release(
    @Tenant() tenantId: string,
    @Param('id', new PrefixedIdPipe('cnv', 'Conversation')) id: string,
    @RequestId() requestId: string,
  ): Promise<ConversationSummary> {
    return this.rpc.request('conversations.release', { tenant_id: tenantId, id }, { requestId });
  }
}
