import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';
import { notFoundProblem, type InvitationRecord, type InvitedMember, type MemberRecord, type Page, type RoleRecord, type SignedInMemberRecord } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { Requires } from '../auth/permissions';
import { GatewayConfig } from '../../config/gateway.config';
import { ListQueryDto } from '../../http/list-query.dto';
import { PrefixedIdPipe } from '../../http/param-pipes';
import { publicBaseUrl } from '../../http/public-base-url';
import { CurrentMember, Public, Tenant, type SignedInMember } from '../../http/request-context';
import { ApiRoute } from '../../openapi/api-route.decorator';
import { AddressLimitGuard, LimitPerAddress } from '../../rate-limits/address-limit.guard';
import { InvitationQuery, InviteMemberBody, SetPasswordBody, UpdateMemberBody } from './team.dto';
import { roleRecords, toSignedInMemberRecord } from './team.mapper';
import { TeamService } from './team.service';

const MemberId = new PrefixedIdPipe('usr', 'Team member');

/** The people who sign in to the dashboard (CONTRACT.md §12). Managing them takes an owner or an admin. */
@Controller('api/v1/team')
@Requires('team.manage')
export class TeamController {
  constructor(
    private readonly team: TeamService,
    private readonly config: GatewayConfig,
  ) {}

  @ApiRoute({
    summary: 'Invite a team member',
    description:
      'The invitation is mailed to the member (MAIL_SMTP_URL; a mail the SMTP server does not take now is retried until the link expires) with the accept link, which the answer shows this once too (`invite_url`); in development it is also written to the log. It expires after `INVITE_TTL_SECONDS` (7 days). Owners and admins only; an admin may not invite an owner.',
    access: 'tenant',
    body: InviteMemberBody,
    success: { status: 201, description: 'Invited.', schema: 'InvitedMember' },
    errors: [409],
  })
  @Post()
  @HttpCode(201)
  invite(@Tenant() tenantId: string, @CurrentMember() actor: SignedInMember | null, @Body() body: InviteMemberBody, @Req() request: FastifyRequest): Promise<InvitedMember> {
    return this.team.invite(tenantId, actor, body, publicBaseUrl(this.config, request));
  }

  @ApiRoute({
    summary: 'Show an invitation (its accept page)',
    description:
      'What the invitation link’s page shows before the invitee chooses a password: the business, who invited them, their email, name and role, and until when the link works. The token is only looked at (it still works once for `POST /api/v1/team/accept`). Unknown, used or expired → 400 naming `token`.',
    access: 'public',
    query: InvitationQuery,
    success: { status: 200, description: 'The invitation.', schema: 'Invitation' },
    errors: [429],
  })
  @Get('accept')
  @Public()
  @LimitPerAddress('sign-in')
  @UseGuards(AddressLimitGuard)
  invitation(@Query() query: InvitationQuery): Promise<InvitationRecord> {
    return this.team.invitation(query.token);
  }

  @ApiRoute({
    summary: 'Accept an invitation (set the password)',
    description: 'Takes the `token` of the invitation link; the member becomes `active` and can sign in with `POST /auth/login`. The token works once.',
    access: 'public',
    body: SetPasswordBody,
    success: { status: 200, description: 'The member, now active.', schema: 'TeamMember' },
    errors: [429],
  })
  @Post('accept')
  @Public()
  @LimitPerAddress('sign-in')
  @UseGuards(AddressLimitGuard)
  @HttpCode(200)
  accept(@Body() body: SetPasswordBody): Promise<MemberRecord> {
    return this.team.accept(body.token, body.password);
  }

  @ApiRoute({ summary: 'List team members and invitations', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of members.', schema: 'TeamMemberPage' } })
  @Get()
  @Requires()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto): Promise<Page<MemberRecord>> {
    return this.team.list(tenantId, query.limit, query.cursor ?? null);
  }

  @ApiRoute({
    summary: 'The signed-in team member and what they may do',
    description:
      'For a team member’s session or access token; a program’s credential (API key, client token) is no member: 404 (a program may do everything). `permissions` lists what the member’s role allows (see `GET /api/v1/team/roles`); a route a permission does not cover answers 403 naming the role.',
    access: 'tenant',
    success: { status: 200, description: 'The member.', schema: 'SignedInMember' },
    errors: [404],
  })
  @Get('me')
  @Requires()
  async me(@Tenant() tenantId: string, @CurrentMember() member: SignedInMember | null): Promise<SignedInMemberRecord> {
    if (!member) throw new ProblemException(notFoundProblem('A team member for this credential (it is an API key or client token)'));
    return toSignedInMemberRecord(await this.team.get(tenantId, member.id));
  }

  @ApiRoute({
    summary: 'The roles and what each may do',
    description: 'Each role with a line describing it and its permissions (the names `@Requires` of each route, `x-parley-permissions` in this document).',
    access: 'tenant',
    success: { status: 200, description: 'The roles, owner first.', schema: 'TeamRoles' },
  })
  @Get('roles')
  @Requires()
  roles(): { data: RoleRecord[] } {
    return { data: roleRecords() };
  }

  @ApiRoute({
    summary: 'Change a member’s role',
    description: 'Owners and admins only; an admin may not change an owner or make anyone an owner. The last owner cannot be demoted (409).',
    access: 'tenant',
    body: UpdateMemberBody,
    success: { status: 200, description: 'The member.', schema: 'TeamMember' },
    errors: [404, 409],
  })
  @Patch(':id')
  changeRole(@Tenant() tenantId: string, @CurrentMember() actor: SignedInMember | null, @Param('id', MemberId) id: string, @Body() body: UpdateMemberBody): Promise<MemberRecord> {
    return this.team.changeRole(tenantId, actor, id, body.role);
  }

  @ApiRoute({
    summary: 'Send an invitation again',
    description:
      'A new link (the earlier one stops working) and a new invitation mail, for an invitation whose mail went astray or whose link expired. Owners and admins; an admin may not re-invite an owner. A member who has accepted → 409.',
    access: 'tenant',
    success: { status: 200, description: 'The invitation, with its new link (shown this once).', schema: 'InvitedMember' },
    errors: [404, 409],
  })
  @Post(':id/invitation')
  @HttpCode(200)
  reinvite(@Tenant() tenantId: string, @CurrentMember() actor: SignedInMember | null, @Param('id', MemberId) id: string, @Req() request: FastifyRequest): Promise<InvitedMember> {
    return this.team.reinvite(tenantId, actor, id, publicBaseUrl(this.config, request));
  }

  @ApiRoute({
    summary: 'Remove a member (or withdraw an invitation)',
    description: 'Their sessions end at once. Owners and admins only; an admin may not remove an owner. The last owner cannot be removed (409).',
    access: 'tenant',
    success: { status: 204, description: 'Removed.' },
    errors: [404, 409],
  })
  @Delete(':id')
  @HttpCode(204)
  async remove(@Tenant() tenantId: string, @CurrentMember() actor: SignedInMember | null, @Param('id', MemberId) id: string): Promise<void> {
    await this.team.remove(tenantId, actor, id);
  }
}
