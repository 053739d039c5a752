import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CreateTeamBody, UpdateTeamBody, type TeamRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { Requires } from '../identity/auth/permissions';
import { TeamService } from '../identity/team/team.service';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

const TeamId = new PrefixedIdPipe('tea', 'Team');
const ROUTING =
  '`routing`: `round_robin` (the next member in turn), `least_busy` (the member holding fewest open conversations) or `manual` (conversations wait in the queue for someone to take them). Only members who are `online` with a dashboard open get conversations, each at most `capacity_per_member` open ones; outside `business_hours` (the team’s `timezone`, `holidays` closed) handoffs wait and the customer gets `closed_message` with the next opening time. `sla` targets count from the handoff.';

/**
 * Teams (CONTRACT.md §18), owned by responder-service with the inbox and its routing. The members live here (the
 * gateway owns the team of people), so a member id the tenant does not have is refused here, naming it.
 */
@Controller('api/v1/teams')
export class TeamsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly people: TeamService,
  ) {}

  @ApiRoute({
    summary: 'Create a team',
    description: `${ROUTING} The oldest team is the default one: handoffs no routing rule matches go to it. One team per name (409).`,
    access: 'tenant',
    body: CreateTeamBody,
    success: { status: 201, description: 'Created.', schema: 'Team' },
    errors: [409, 503],
  })
  @Post()
  @HttpCode(201)
  @Requires('team.manage')
  async create(@Tenant() tenantId: string, @Body() body: CreateTeamBody, @RequestId() requestId: string): Promise<TeamRecord> {
    await this.checkMembers(tenantId, body.members);
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('teams.create', { tenant_id: tenantId, body: request }, { requestId });
  }

  @ApiRoute({ summary: 'List teams', description: 'Oldest first (the first is the default team).', access: 'tenant', success: { status: 200, description: 'The teams.', schema: 'TeamPage' }, errors: [503] })
  @Get()
  list(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<{ data: TeamRecord[]; next_cursor: null }> {
    return this.rpc.request('teams.list', { tenant_id: tenantId }, { requestId });
  }

  @ApiRoute({ summary: 'Get a team', access: 'tenant', success: { status: 200, description: 'The team.', schema: 'Team' }, errors: [404, 503] })
  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', TeamId) id: string, @RequestId() requestId: string): Promise<TeamRecord> {
    return this.rpc.request('teams.get', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({
    summary: 'Change a team',
    description: `Only the fields given change; null clears capacity_per_member, reassign_after_seconds, closed_message or sla. ${ROUTING}`,
    access: 'tenant',
    body: UpdateTeamBody,
    success: { status: 200, description: 'The team as it now is.', schema: 'Team' },
    errors: [404, 409, 503],
  })
  @Patch(':id')
  @Requires('team.manage')
  async update(@Tenant() tenantId: string, @Param('id', TeamId) id: string, @Body() body: UpdateTeamBody, @RequestId() requestId: string): Promise<TeamRecord> {
    if (body.members) await this.checkMembers(tenantId, body.members);
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('teams.update', { tenant_id: tenantId, id, body: request }, { requestId });
  }

  @ApiRoute({
    summary: 'Delete a team',
    description: 'Its routing rules go with it; its conversations keep their assignee and leave the team.',
    access: 'tenant',
    success: { status: 204, description: 'Deleted.' },
    errors: [404, 503],
  })
  @Delete(':id')
  @HttpCode(204)
  @Requires('team.manage')
  async remove(@Tenant() tenantId: string, @Param('id', TeamId) id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('teams.delete', { tenant_id: tenantId, id }, { requestId });
  }

  private checkMembers(tenantId: string, members: string[]): Promise<void> {
    return this.people.checkMembers(
      tenantId,
      members.map((id, i) => ({ field: `members[${i}]`, id, message: `${id} is not a member of your team (GET /api/v1/team)` })),
    );
  }
}
