import { Controller, Get, Param, Query } from '@nestjs/common';
import type { MessageRecord, Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { MessageListQueryDto } from './message-list-query.dto';
import { ApiRoute } from '../openapi/api-route.decorator';

/** Message reads (CONTRACT.md §4), owned by messaging-service. */
@Controller('api/v1/messages')
export class MessagesController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({ summary: 'List messages', access: 'tenant', query: MessageListQueryDto, success: { status: 200, description: 'A page of messages, newest first.', schema: 'MessagePage' } })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: MessageListQueryDto, @RequestId() requestId: string): Promise<Page<MessageRecord>> {
    const { direction, to, from, since } = query;
    return this.rpc.request('messages.list', { tenant_id: tenantId, ...pageOf(query), direction, to, from, since }, { requestId });
  }

  @ApiRoute({ summary: 'Get a message and its status history', access: 'tenant', success: { status: 200, description: 'The message.', schema: 'Message' }, errors: [404] })
  @Get(':message_id')
  get(@Tenant() tenantId: string, @Param('message_id', new PrefixedIdPipe('msg', 'Message')) messageId: string, @RequestId() requestId: string): Promise<MessageRecord> {
    return this.rpc.request('messages.get', { tenant_id: tenantId, message_id: messageId }, { requestId });
  }
}
