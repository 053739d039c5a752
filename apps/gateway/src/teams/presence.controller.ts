import { Body, Controller, Get, Put } from '@nestjs/common';
import { PresenceBody, validationProblem, type PresenceRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { CurrentMember, RequestId, Tenant, type SignedInMember } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

/**
 * Members' presence (CONTRACT.md §18): the "away" switch here; being there is the dashboard's events stream, which
 * tells responder-service while it stays open (EventsStreamController). Routing hands conversations only to members
 * `online` with a dashboard open in the last minute.
 */
@Controller('api/v1/team')
export class PresenceController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Set my presence',
    description: '`away`: keep your conversations but get no new ones; `online`: get them again while a dashboard of yours is open. A member whose dashboard closes is away after 60 s. Needs a signed-in team member.',
    access: 'tenant',
    body: PresenceBody,
    success: { status: 200, description: 'Your presence.', schema: 'Presence' },
    errors: [503],
  })
  @Put('me/presence')
  set(@Tenant() tenantId: string, @Body() body: PresenceBody, @CurrentMember() member: SignedInMember | null, @RequestId() requestId: string): Promise<PresenceRecord> {
    if (!member) throw new ProblemException(validationProblem([{ field: 'status', message: 'presence is a signed-in team member’s own; an API key has none' }]));
    return this.rpc.request('presence.set', { tenant_id: tenantId, member_id: member.id, status: body.status }, { requestId });
  }

  @ApiRoute({
    summary: 'List the team’s presence',
    description: 'Every member who has set a presence or opened a dashboard, with whether routing would hand them a conversation now (`available`).',
    access: 'tenant',
    success: { status: 200, description: 'Presence per member.', schema: 'PresenceList' },
    errors: [503],
  })
  @Get('presence')
  list(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<{ data: PresenceRecord[] }> {
    return this.rpc.request('presence.list', { tenant_id: tenantId }, { requestId });
  }
}
