import { Controller, Get, Header, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CALENDAR_FEED_TOKEN_PATTERN, notFoundProblem, type CalendarFeedRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import { Requires } from '../identity/auth/permissions';
import { GatewayConfig } from '../config/gateway.config';
import { publicBaseUrl } from '../http/public-base-url';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

/** The feed's path on the gateway; outside `/api/v1`, so calendar apps reach it with the token alone. */
export const calendarFeedPath = (token: string) => `/calendar/${token}.ics`;

/** The tenant's secret calendar feed URL (CONTRACT.md §14, Integrations); responder-service owns token and feed. */
@Controller('api/v1/integrations/calendar')
export class CalendarIntegrationController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly config: GatewayConfig,
  ) {}

  @ApiRoute({
    summary: 'The secret iCalendar feed URL of the appointments',
    description:
      'An RFC 5545 feed that Google Calendar, Outlook and Apple Calendar subscribe to (“from URL”). The URL is its only credential: keep it secret, and rotate it if it leaked. The same URL until rotated.',
    access: 'tenant',
    success: { status: 200, description: 'The feed URL.', schema: 'CalendarFeed' },
    errors: [503],
  })
  @Get()
  async get(@Tenant() tenantId: string, @Req() request: FastifyRequest, @RequestId() requestId: string): Promise<CalendarFeedRecord> {
    const { token } = await this.rpc.request('appointments.feed-token', { tenant_id: tenantId }, { requestId });
    return { url: publicBaseUrl(this.config, request) + calendarFeedPath(token) };
  }

  @ApiRoute({
    summary: 'Rotate the calendar feed URL',
    description: 'A new secret URL; the old one answers `404` from now on (subscribed calendars must subscribe again). Owners and admins only.',
    access: 'tenant',
    success: { status: 200, description: 'The new feed URL.', schema: 'CalendarFeed' },
    errors: [503],
  })
  @Post('rotate')
  @HttpCode(200)
  @Requires('settings.manage')
  async rotate(@Tenant() tenantId: string, @Req() request: FastifyRequest, @RequestId() requestId: string): Promise<CalendarFeedRecord> {
    const { token } = await this.rpc.request('appointments.feed-rotate', { tenant_id: tenantId }, { requestId });
    return { url: publicBaseUrl(this.config, request) + calendarFeedPath(token) };
  }
}

/** The feed itself, what calendar apps fetch: no credential but the unguessable token in its path. */
@Controller('calendar')
export class CalendarFeedController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'The iCalendar feed of the appointments (secret URL)',
    description:
      'RFC 5545, times in UTC, one `VEVENT` per appointment from 90 days back (its `UID` stays when it is rescheduled; a cancelled one stays as `STATUS:CANCELLED`). An unknown or rotated token → `404`.',
    access: 'public',
    success: { status: 200, description: 'The calendar.', contentType: 'text/calendar', schema: { type: 'string' } },
    errors: [404, 503],
  })
  @Get(':file')
  @Header('content-type', 'text/calendar; charset=utf-8')
  @Header('content-disposition', 'inline; filename="appointments.ics"')
  // Private: the URL is a secret, and a rotated one must stop answering at once.
  @Header('cache-control', 'private, no-cache')
  async feed(@Param('file') file: string, @RequestId() requestId: string): Promise<string> {
    const token = /^(.+)\.ics$/.exec(file)?.[1];
    if (!token || !CALENDAR_FEED_TOKEN_PATTERN.test(token)) throw new ProblemException(notFoundProblem('Calendar feed'));
    return (await this.rpc.request('appointments.feed', { token }, { requestId })).ics;
  }
}
