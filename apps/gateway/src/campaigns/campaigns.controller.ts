import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { AudienceCountBody, CreateCampaignBody, RECIPIENT_STATUSES, type AudienceCount, type CampaignAction, type CampaignRecipientRecord, type CampaignRecord, type Page, type RecipientStatus, type SendsInMinute } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { IsIn, IsOptional } from 'class-validator';
import { Requires } from '../identity/auth/permissions';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { AudienceCountSchema, CampaignPageSchema, CampaignRecipientPageSchema, CampaignSchema, SendsPerMinuteSchema } from './campaign-schemas';

const CampaignId = new PrefixedIdPipe('cpg', 'Campaign');

/** A start resolves the whole audience from crm-service before it answers: more time than the default. */
const START_TIMEOUT_MS = 60_000;

export class RecipientListQueryDto extends ListQueryDto {
  @IsOptional()
  @IsIn(RECIPIENT_STATUSES, { message: `status must be one of: ${RECIPIENT_STATUSES.join(', ')}` })
  status?: RecipientStatus;
}

/** Campaigns (CONTRACT.md §15), owned by campaign-service. */
@Controller('api/v1/campaigns')
@Requires('campaigns.manage')
export class CampaignsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Create a campaign',
    description: '`draft` until started, or `scheduled` with `schedule_at`. Template parameters may name contact fields: `{{contact.name}}`, `{{contact.attributes.city}}`.',
    access: 'tenant',
    body: CreateCampaignBody,
    success: { status: 201, description: 'Created.', schema: CampaignSchema },
    errors: [503],
  })
  @Post()
  @HttpCode(201)
  create(@Tenant() tenantId: string, @Body() body: CreateCampaignBody, @RequestId() requestId: string): Promise<CampaignRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('campaigns.create', { tenant_id: tenantId, body: request }, { requestId });
  }

  @ApiRoute({
    summary: 'Count the contacts an audience reaches now',
    description:
      'The audience of `POST /api/v1/campaigns`, counted as a start would resolve it at this moment (the dashboard shows it live as the tags change): `count` contacts would be messaged, `opted_out` skipped. Nothing is stored; the audience is frozen only when a campaign starts.',
    access: 'tenant',
    body: AudienceCountBody,
    success: { status: 200, description: 'The counts.', schema: AudienceCountSchema },
    errors: [503],
  })
  @Post('audience-count')
  @HttpCode(200)
  audienceCount(@Tenant() tenantId: string, @Body() body: AudienceCountBody, @RequestId() requestId: string): Promise<AudienceCount> {
    return this.rpc.request('contacts.audience-count', { tenant_id: tenantId, audience: body.audience }, { requestId });
  }

  @ApiRoute({ summary: 'List campaigns', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of campaigns, newest first.', schema: CampaignPageSchema }, errors: [503] })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<CampaignRecord>> {
    return this.rpc.request('campaigns.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({ summary: 'Get a campaign with its live counts', access: 'tenant', success: { status: 200, description: 'The campaign.', schema: CampaignSchema }, errors: [404, 503] })
  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', CampaignId) id: string, @RequestId() requestId: string): Promise<CampaignRecord> {
    return this.rpc.request('campaigns.get', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({
    summary: "List a campaign's recipients and their messages",
    access: 'tenant',
    query: RecipientListQueryDto,
    success: { status: 200, description: 'A page of recipients.', schema: CampaignRecipientPageSchema },
    errors: [404, 503],
  })
  @Get(':id/recipients')
  recipients(@Tenant() tenantId: string, @Param('id', CampaignId) id: string, @Query() query: RecipientListQueryDto, @RequestId() requestId: string): Promise<Page<CampaignRecipientRecord>> {
    return this.rpc.request('campaigns.recipients', { tenant_id: tenantId, id, ...pageOf(query), ...(query.status ? { status: query.status } : {}) }, { requestId });
  }

  @ApiRoute({
    summary: 'A campaign’s sends per minute',
    description: 'Messages handed over to the channel in each minute (UTC, oldest first; minutes without any are left out): the progress chart.',
    access: 'tenant',
    success: { status: 200, description: 'One row a minute.', schema: SendsPerMinuteSchema },
    errors: [404, 503],
  })
  @Get(':id/sends-per-minute')
  sendsPerMinute(@Tenant() tenantId: string, @Param('id', CampaignId) id: string, @RequestId() requestId: string): Promise<{ data: SendsInMinute[] }> {
    return this.rpc.request('campaigns.sends-per-minute', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({
    summary: 'Start a campaign now',
    description: 'Resolves and freezes the audience; `409` listing the recipients who would get an empty template parameter, or when the campaign is not `draft` or `scheduled`.',
    access: 'tenant',
    success: { status: 200, description: 'The campaign, running.', schema: CampaignSchema },
    errors: [404, 409, 503],
  })
  @Post(':id/start')
  @HttpCode(200)
  start(@Tenant() tenantId: string, @Param('id', CampaignId) id: string, @RequestId() requestId: string): Promise<CampaignRecord> {
    return this.transition(tenantId, id, 'start', requestId);
  }

  @ApiRoute({ summary: 'Pause a running campaign', access: 'tenant', success: { status: 200, description: 'The campaign, paused.', schema: CampaignSchema }, errors: [404, 409, 503] })
  @Post(':id/pause')
  @HttpCode(200)
  pause(@Tenant() tenantId: string, @Param('id', CampaignId) id: string, @RequestId() requestId: string): Promise<CampaignRecord> {
    return this.transition(tenantId, id, 'pause', requestId);
  }

  @ApiRoute({ summary: 'Resume a paused campaign', access: 'tenant', success: { status: 200, description: 'The campaign, running.', schema: CampaignSchema }, errors: [404, 409, 503] })
  @Post(':id/resume')
  @HttpCode(200)
  resume(@Tenant() tenantId: string, @Param('id', CampaignId) id: string, @RequestId() requestId: string): Promise<CampaignRecord> {
    return this.transition(tenantId, id, 'resume', requestId);
  }

  @ApiRoute({ summary: 'Cancel a campaign', description: 'Nothing more is sent; what was sent keeps its results.', access: 'tenant', success: { status: 200, description: 'The campaign, cancelled.', schema: CampaignSchema }, errors: [404, 409, 503] })
  @Post(':id/cancel')
  @HttpCode(200)
  cancel(@Tenant() tenantId: string, @Param('id', CampaignId) id: string, @RequestId() requestId: string): Promise<CampaignRecord> {
    return this.transition(tenantId, id, 'cancel', requestId);
  }

  private transition(tenantId: string, id: string, action: CampaignAction, requestId: string): Promise<CampaignRecord> {
    return this.rpc.request('campaigns.transition', { tenant_id: tenantId, id, action }, { requestId, timeoutMs: action === 'start' ? START_TIMEOUT_MS : undefined });
  }
}
