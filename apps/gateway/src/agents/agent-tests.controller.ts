import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CreateAgentTestBody, notFoundProblem, type AgentTestRecord, type AgentTestRunRecord, type Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { Requires } from '../identity/auth/permissions';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { AgentNamePipe, PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

const TestId = new PrefixedIdPipe('tst', 'Test');

/** An agent's own test set and its runs per version (CONTRACT.md §19), kept and run by responder-service. */
@Controller('api/v1/agents/:agent_name')
export class AgentTestsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Add a test case to an agent',
    description:
      'A message a customer might write and what the reply must be: `contains` (text, case and accents aside), `skill`, `handoff`, `no_answer` (the agent says it does not know); at least one, all that are given must hold. Every new version of the agent runs the set in the background (`GET …/versions/{version}/test-run`); `PUT /api/v1/agents/{name}?require_tests=pass` runs it before saving. At most 200 per agent.',
    access: 'tenant',
    body: CreateAgentTestBody,
    success: { status: 201, description: 'The test case.', schema: 'AgentTest' },
    errors: [400, 404, 409, 503],
  })
  @Post('tests')
  @Requires('agents.manage')
  create(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Body() body: CreateAgentTestBody, @RequestId() requestId: string): Promise<AgentTestRecord> {
    return this.rpc.request('agent-tests.create', { tenant_id: tenantId, agent, message: body.message, expect: body.expect }, { requestId });
  }

  @ApiRoute({ summary: "List an agent's test cases", description: 'Oldest first.', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of test cases.', schema: 'AgentTestPage' }, errors: [400, 404, 503] })
  @Get('tests')
  list(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<AgentTestRecord>> {
    return this.rpc.request('agent-tests.list', { tenant_id: tenantId, agent, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({ summary: 'Delete a test case', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [404, 503] })
  @Delete('tests/:id')
  @Requires('agents.manage')
  @HttpCode(204)
  async delete(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Param('id', TestId) id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('agent-tests.delete', { tenant_id: tenantId, agent, id }, { requestId });
  }

  @ApiRoute({
    summary: "The test run of one version of an agent",
    description:
      'The set run against that version, in the background, when it was saved (`status` `queued`, `running`, then `completed`): each case with the reply and what did not hold, and `fixed` / `broken`: the cases this version passes that the previous one failed, and the other way round. 404 when the agent had no tests when that version was saved.',
    access: 'tenant',
    success: { status: 200, description: 'The run.', schema: 'AgentTestRun' },
    errors: [404, 503],
  })
  @Get('versions/:version/test-run')
  run(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Param('version') version: string, @RequestId() requestId: string): Promise<AgentTestRunRecord> {
    if (!/^[1-9]\d{0,8}$/.test(version)) throw new ProblemException(notFoundProblem(`Version "${version.slice(0, 20)}" of agent "${agent}"`));
    return this.rpc.request('agent-tests.run', { tenant_id: tenantId, agent, version: Number(version) }, { requestId });
  }
}
