import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import { UpsertAgentBody, validationProblem, type AgentRecord, type Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { FastifyReply } from 'fastify';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { AgentNamePipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';

/** Agent settings (CONTRACT.md §3), owned by agent-service; the body is validated here so bad input costs no call. */
@Controller('api/v1/agents')
export class AgentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Put(':agent_name')
  async upsert(
    @Tenant() tenantId: string,
    @Param('agent_name', AgentNamePipe) name: string,
    @Body() body: UpsertAgentBody,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRecord> {
    if (body.name !== name) {
      throw new ProblemException(validationProblem([{ field: 'name', message: `name must equal the agent name in the path ("${name}")` }]));
    }
    const result = await this.rpc.request('agents.upsert', { tenant_id: tenantId, name, body }, { requestId });
    void reply.status(result.created ? 201 : 200);
    return result.agent;
  }

  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<AgentRecord>> {
    return this.rpc.request('agents.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @Get(':agent_name')
  get(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) name: string, @RequestId() requestId: string): Promise<AgentRecord> {
    return this.rpc.request('agents.get', { tenant_id: tenantId, name }, { requestId });
  }

  @Delete(':agent_name')
  @HttpCode(204)
  async delete(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) name: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('agents.delete', { tenant_id: tenantId, name }, { requestId });
  }
}
