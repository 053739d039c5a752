import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ProblemTypes,
  TestAgentBody,
  UpsertAgentBody,
  notFoundProblem,
  problem,
  validationProblem,
  type AgentRecord,
  type AgentTestResult,
  type AgentVersionRecord,
  type AgentVersionSummary,
  type Page,
} from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { FastifyReply } from 'fastify';
import { Requires } from '../identity/auth/permissions';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { AgentNamePipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { UpsertAgentQueryDto } from './upsert-agent-query.dto';

/** Agent settings (CONTRACT.md §3), owned by agent-service; the body is validated here so bad input costs no call. */
@Controller('api/v1/agents')
export class AgentsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Create or replace an agent',
    description:
      '201 when created, 200 when replaced; an identical PUT answers 200 with the same version. `name` must equal the path name. With `?require_tests=pass` the agent’s test set (`POST …/tests`) runs against the new body first and a failing case refuses the change: 409 with `failing`, each case with the reply and what did not hold.',
    access: 'tenant',
    body: UpsertAgentBody,
    query: UpsertAgentQueryDto,
    success: { status: 200, description: 'Replaced (or unchanged).', schema: 'Agent', also: [{ status: 201, description: 'Created.' }] },
    errors: [400, 409, 503],
  })
  @Put(':agent_name')
  @Requires('agents.manage')
  async upsert(
    @Tenant() tenantId: string,
    @Param('agent_name', AgentNamePipe) name: string,
    @Body() body: UpsertAgentBody,
    @Query() query: UpsertAgentQueryDto,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRecord> {
    if (body.name !== name) {
      throw new ProblemException(validationProblem([{ field: 'name', message: `name must equal the agent name in the path ("${name}")` }]));
    }
    if (query.require_tests === 'pass') {
      const { total, failing } = await this.rpc.request('agent-tests.check', { tenant_id: tenantId, agent: name, body }, { requestId });
      if (failing.length > 0) {
        // RFC 9457 lets a problem carry members of its own: the failing cases, each with its reply
        const refused = { ...problem(409, ProblemTypes.testsFailed, 'Tests failed', `${failing.length} of ${total} test cases of agent "${name}" fail with this change; it was not saved.`), failing };
        throw new ProblemException(refused);
      }
    }
    const result = await this.rpc.request('agents.upsert', { tenant_id: tenantId, name, body }, { requestId });
    void reply.status(result.created ? 201 : 200);
    return result.agent;
  }

  @ApiRoute({ summary: 'List agents', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of agents.', schema: 'AgentPage' } })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<AgentRecord>> {
    return this.rpc.request('agents.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({ summary: 'Get an agent', access: 'tenant', success: { status: 200, description: 'The agent.', schema: 'Agent' }, errors: [400, 404] })
  @Get(':agent_name')
  get(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) name: string, @RequestId() requestId: string): Promise<AgentRecord> {
    return this.rpc.request('agents.get', { tenant_id: tenantId, name }, { requestId });
  }

  @ApiRoute({ summary: 'Delete an agent', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [400, 404] })
  @Delete(':agent_name')
  @Requires('agents.manage')
  @HttpCode(204)
  async delete(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) name: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('agents.delete', { tenant_id: tenantId, name }, { requestId });
  }

  @ApiRoute({ summary: 'List the versions of an agent', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of versions, newest first.', schema: 'AgentVersionSummaryPage' }, errors: [404] })
  @Get(':agent_name/versions')
  versions(
    @Tenant() tenantId: string,
    @Param('agent_name', AgentNamePipe) name: string,
    @Query() query: ListQueryDto,
    @RequestId() requestId: string,
  ): Promise<Page<AgentVersionSummary>> {
    return this.rpc.request('agents.versions', { tenant_id: tenantId, name, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({ summary: 'Get one version of an agent (roll back by PUTting its body)', access: 'tenant', success: { status: 200, description: 'The version and its body.', schema: 'AgentVersion' }, errors: [400, 404] })
  @Get(':agent_name/versions/:version')
  version(
    @Tenant() tenantId: string,
    @Param('agent_name', AgentNamePipe) name: string,
    @Param('version') version: string,
    @RequestId() requestId: string,
  ): Promise<AgentVersionRecord> {
    // A version that cannot exist is simply not found, without a call.
    if (!/^[1-9]\d{0,8}$/.test(version)) throw new ProblemException(notFoundProblem(`Version "${version.slice(0, 20)}" of agent "${name}"`));
    return this.rpc.request('agents.version', { tenant_id: tenantId, name, version: Number(version) }, { requestId });
  }

  /** What the agent would answer, computed by responder-service from its read model; nothing is sent, stored or emitted. */
  @ApiRoute({ summary: 'Preview the agent’s answer to one message (no side effects)', access: 'tenant', body: TestAgentBody, success: { status: 200, description: 'What the agent would answer.', schema: 'AgentTestResult' }, errors: [404, 503] })
  @Post(':agent_name/test')
  @HttpCode(200)
  test(
    @Tenant() tenantId: string,
    @Param('agent_name', AgentNamePipe) name: string,
    @Body() body: TestAgentBody,
    @RequestId() requestId: string,
  ): Promise<AgentTestResult> {
    return this.rpc.request('replies.preview', { tenant_id: tenantId, agent: name, message: body.message, from: body.from ?? null }, { requestId });
  }
}
