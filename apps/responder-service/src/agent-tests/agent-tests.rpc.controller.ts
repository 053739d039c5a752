import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { AgentTestsService } from './agent-tests.service';

/** Request-reply handlers for the gateway's test-set routes (CONTRACT.md §19). */
@Controller()
export class AgentTestsRpcController {
  constructor(private readonly tests: AgentTestsService) {}

  @MessagePattern('agent-tests.create')
  create(@Payload() req: RpcRequest<'agent-tests.create'>): Promise<RpcResponse<'agent-tests.create'>> {
    return this.tests.create(req.tenant_id, req.agent, req.message, req.expect);
  }

  @MessagePattern('agent-tests.list')
  list(@Payload() req: RpcRequest<'agent-tests.list'>): Promise<RpcResponse<'agent-tests.list'>> {
    return this.tests.list(req.tenant_id, req.agent, req.limit, req.cursor);
  }

  @MessagePattern('agent-tests.delete')
  delete(@Payload() req: RpcRequest<'agent-tests.delete'>): Promise<RpcResponse<'agent-tests.delete'>> {
    return this.tests.delete(req.tenant_id, req.agent, req.id);
  }

  @MessagePattern('agent-tests.run')
  run(@Payload() req: RpcRequest<'agent-tests.run'>): Promise<RpcResponse<'agent-tests.run'>> {
    return this.tests.run(req.tenant_id, req.agent, req.version);
  }

  @MessagePattern('agent-tests.check')
  check(@Payload() req: RpcRequest<'agent-tests.check'>): Promise<RpcResponse<'agent-tests.check'>> {
    return this.tests.check(req.tenant_id, req.agent, req.body);
  }
}
