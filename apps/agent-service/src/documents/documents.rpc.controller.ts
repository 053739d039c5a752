import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { KafkaContext } from '@parley/kafka';
import { DocumentsService } from './documents.service';

/** Request-reply handlers for the gateway's document routes (CONTRACT.md §11). */
@Controller()
export class DocumentsRpcController {
  constructor(private readonly documents: DocumentsService) {}

  @MessagePattern('documents.create')
  create(@Payload() req: RpcRequest<'documents.create'>): Promise<RpcResponse<'documents.create'>> {
    return this.documents.create(req.tenant_id, req.agent, req.upload);
  }

  @MessagePattern('documents.list')
  list(@Payload() req: RpcRequest<'documents.list'>): Promise<RpcResponse<'documents.list'>> {
    return this.documents.list(req.tenant_id, req.agent, req.limit, req.cursor);
  }

  @MessagePattern('documents.get')
  get(@Payload() req: RpcRequest<'documents.get'>): Promise<RpcResponse<'documents.get'>> {
    return this.documents.get(req.tenant_id, req.agent, req.id);
  }

  @MessagePattern('documents.delete')
  async delete(@Payload() req: RpcRequest<'documents.delete'>, @Ctx() ctx: KafkaContext): Promise<RpcResponse<'documents.delete'>> {
    await this.documents.delete(req.tenant_id, req.agent, req.id, ctx.requestId);
    return { deleted: true };
  }

  @MessagePattern('documents.import')
  importSitemap(@Payload() req: RpcRequest<'documents.import'>): Promise<RpcResponse<'documents.import'>> {
    return this.documents.importSitemap(req.tenant_id, req.agent, req.body);
  }

  @MessagePattern('documents.import-get')
  getImport(@Payload() req: RpcRequest<'documents.import-get'>): Promise<RpcResponse<'documents.import-get'>> {
    return this.documents.getImport(req.tenant_id, req.agent, req.id);
  }
}
