import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { validationProblem, type RpcRequest, type RpcResponse } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { ConversationsService } from './conversations.service';
import { InboxService } from './inbox.service';

/** Conversations and the inbox (CONTRACT.md §9, §12). */
@Controller()
export class ConversationsRpcController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly inbox: InboxService,
  ) {}

  @MessagePattern('conversations.list')
  list(@Payload() req: RpcRequest<'conversations.list'>): Promise<RpcResponse<'conversations.list'>> {
    return this.conversations.list(req.tenant_id, req.limit, req.cursor, req);
  }

  @MessagePattern('conversations.get')
  get(@Payload() req: RpcRequest<'conversations.get'>): Promise<RpcResponse<'conversations.get'>> {
    return this.inbox.open(req.tenant_id, req.id, req.reader ?? null);
  }

  @MessagePattern('conversations.update')
  update(@Payload() req: RpcRequest<'conversations.update'>): Promise<RpcResponse<'conversations.update'>> {
    return this.inbox.update(req.tenant_id, req.id, req.change);
  }

  @MessagePattern('conversations.release')
  release(@Payload() req: RpcRequest<'conversations.release'>): Promise<RpcResponse<'conversations.release'>> {
    return this.inbox.release(req.tenant_id, req.id);
  }

  @MessagePattern('conversations.reply')
  reply(@Payload() req: RpcRequest<'conversations.reply'>): Promise<RpcResponse<'conversations.reply'>> {
    return this.inbox.reply(req.tenant_id, req.id, req.message, req.actor);
  }

  @MessagePattern('conversations.note')
  note(@Payload() req: RpcRequest<'conversations.note'>): Promise<RpcResponse<'conversations.note'>> {
    return this.inbox.note(req.tenant_id, req.id, req.text, req.actor);
  }

  @MessagePattern('conversations.playground-customer')
  async playgroundCustomer(@Payload() req: RpcRequest<'conversations.playground-customer'>): Promise<RpcResponse<'conversations.playground-customer'>> {
    // The gateway checked it is E.164; stored as messaging-service writes a customer's number (+ and digits).
    const customer = typeof req.customer === 'string' && /^\+\d{6,15}$/.test(req.customer) ? req.customer : null;
    if (!customer) throw new ProblemException(validationProblem([{ field: 'customer', message: 'customer must be a phone number in E.164 format' }]));
    return { customer, conversations: await this.conversations.markPlaygroundCustomer(req.tenant_id, customer) };
  }
}
