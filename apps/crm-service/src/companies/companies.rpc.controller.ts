import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { CompaniesService } from './companies.service';

/** Request-reply handlers for the gateway's company routes (CONTRACT.md §14). */
@Controller()
export class CompaniesRpcController {
  constructor(private readonly companies: CompaniesService) {}

  @MessagePattern('companies.create')
  create(@Payload() req: RpcRequest<'companies.create'>): Promise<RpcResponse<'companies.create'>> {
    return this.companies.create(req.tenant_id, req.body);
  }

  @MessagePattern('companies.list')
  list(@Payload() req: RpcRequest<'companies.list'>): Promise<RpcResponse<'companies.list'>> {
    return this.companies.list(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('companies.get')
  get(@Payload() req: RpcRequest<'companies.get'>): Promise<RpcResponse<'companies.get'>> {
    return this.companies.get(req.tenant_id, req.id);
  }

  @MessagePattern('companies.update')
  update(@Payload() req: RpcRequest<'companies.update'>): Promise<RpcResponse<'companies.update'>> {
    return this.companies.update(req.tenant_id, req.id, req.body);
  }

  @MessagePattern('companies.delete')
  async delete(@Payload() req: RpcRequest<'companies.delete'>): Promise<RpcResponse<'companies.delete'>> {
    await this.companies.delete(req.tenant_id, req.id);
    return { deleted: true };
  }
}
